import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MaybeAsync } from '../../common/async/maybe-async';
import { AppConfig } from '../../config/app-config';
import type { AuditedBy } from '../audit/audit.service';
import { VehicleCategoriesService } from './vehicle-categories.service';
import type { EstimateRideDto } from './dto/estimate-ride.dto';
import type { RideRequestFieldsDto } from './dto/ride-request-fields.dto';
import { VehicleCategoryResponseDto } from './dto/vehicle-category-response.dto';
import type { EstimateListView, EstimateView, FareEstimate } from './fare-estimate';
import { FareEstimatesService } from './fares/fare-estimates.service';
import { CreatePromoCodeInput, PromoCodesService } from './promos/promo-codes.service';
import type { PromoCodeRow } from './promos/promo-codes.repository';

export type { CreatePromoCodeInput, PromoCodeRow };

/**
 * The pricing module's face: fare estimates (surge and promo codes included), the quote a booking
 * stores, promo codes, the category list. Everything rides (booking, the categories and estimate
 * endpoints) needs from pricing goes through here; the services behind it are the module's own.
 *
 * The categories themselves are the other face, VehicleCategoriesService, for modules that only need
 * them (a driver's category). Not through here, for a reason: this service reaches surge, whose
 * supply port is DriversService, so DriversService depending on it would make a cycle.
 */
@Injectable()
export class PricingService {
  constructor(
    private readonly categories: VehicleCategoriesService,
    private readonly estimates: FareEstimatesService,
    private readonly promos: PromoCodesService,
    private readonly config: AppConfig,
  ) {}

  /** GET /rides/categories: the active categories with their fares, in their display order. */
  async listActiveCategories(): Promise<VehicleCategoryResponseDto[]> {
    const list = await this.categories.listActive();
    return list.map((c) => VehicleCategoryResponseDto.from(c, this.config.currency));
  }

  /**
   * POST /rides/estimate: one estimate for the named category, or `{estimates: [...]}` for every
   * active category that fits. Without a promise when nothing needs I/O (the hot path: see
   * FareEstimatesService.estimate).
   */
  estimate(dto: EstimateRideDto): MaybeAsync<EstimateView | EstimateListView> {
    return this.estimates.estimate(dto);
  }

  /**
   * The fare a booking stores: the request validated against its category (400 naming the field
   * otherwise) and priced as an estimate would be at this moment (surge, promo).
   */
  async quote(dto: RideRequestFieldsDto, categoryId: number): Promise<FareEstimate> {
    return (await this.estimates.estimateFor(dto, categoryId)).estimate;
  }

  /**
   * Counts a use of the quoted promo inside the booking's transaction: null when counted, else why
   * the code stopped applying since the quote.
   */
  redeemPromo(promoId: number, manager: EntityManager): Promise<string | null> {
    return this.promos.redeem(promoId, manager);
  }

  /** Operator CLI `promo:create` (audited with `actorId: null`). */
  createPromoCode(input: CreatePromoCodeInput, by: AuditedBy): Promise<PromoCodeRow> {
    return this.promos.createPromoCode(input, by);
  }
}
