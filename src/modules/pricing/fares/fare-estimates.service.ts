import { Injectable } from '@nestjs/common';
import { bothMaybe, MaybeAsync, thenMaybe } from '../../../common/async/maybe-async';
import { AppConfig } from '../../../config/app-config';
import type { RideRequestFieldsDto } from '../dto/ride-request-fields.dto';
import type { VehicleCategoryEntity } from '../entities/vehicle-category.entity';
import { computeFare, PromoRule } from './fare-calculator';
import { EstimateListView, estimateToJson, EstimateView, FareEstimate, PromoOutcome } from '../fare-estimate';
import { RouteLeg, RoutingProvider } from './routing.provider';
import { PromoCodesService } from '../promos/promo-codes.service';
import { checkRideRequest } from './ride-request.rules';
import { SurgeService } from '../surge/surge.service';
import { PricingError } from '../pricing.errors';
import { VehicleCategoriesService } from '../vehicle-categories.service';

/** A priced request: the category it was validated against and its fare. */
export interface Quote {
  category: VehicleCategoryEntity;
  estimate: FareEstimate;
}

/**
 * The fare engine behind estimate and book: pure computation over cached categories and the surge
 * read from memory, plus one promo lookup when a code is given. Nothing is written.
 */
@Injectable()
export class FareEstimatesService {
  constructor(
    private readonly categories: VehicleCategoriesService,
    private readonly routing: RoutingProvider,
    private readonly promos: PromoCodesService,
    private readonly surge: SurgeService,
    private readonly config: AppConfig,
  ) {}

  /**
   * One estimate for the named category, or `{estimates: [...]}` for every active category that fits
   * the passengers. The single estimate (what apps send) is answered without a promise when nothing
   * needs I/O: categories in memory, no promo code, a routing engine that answers at once. A refusal
   * is a rejected promise either way (maybe-async.ts).
   */
  estimate(dto: RideRequestFieldsDto & { vehicle_category_id?: number }): MaybeAsync<EstimateView | EstimateListView> {
    if (dto.vehicle_category_id === undefined) return this.estimateEvery(dto);
    return thenMaybe(this.estimateFor(dto, dto.vehicle_category_id), (q) => this.toJson(q.estimate));
  }

  private async estimateEvery(dto: RideRequestFieldsDto): Promise<EstimateListView> {
    checkRideRequest(dto, undefined);
    const passengers = dto.passenger_count ?? 1;
    const fitting = (await this.categories.listActive()).filter((c) => c.maxPassengers >= passengers);
    const [legs, promo] = await Promise.all([this.legs(dto), this.promo(dto)]);
    return {
      estimates: fitting.map((category) => this.toJson(this.price(dto, category, legs, promo))),
    };
  }

  /** Validates the request against its category and prices it (booking stores the result). */
  estimateFor(dto: RideRequestFieldsDto, categoryId: number): MaybeAsync<Quote> {
    return thenMaybe(this.categories.findActive(categoryId), (category) => this.quote(dto, category));
  }

  private quote(dto: RideRequestFieldsDto, category: VehicleCategoryEntity | undefined): MaybeAsync<Quote> {
    if (!category) throw PricingError.field('CATEGORY_NOT_FOUND', 'vehicle_category_id');
    checkRideRequest(dto, category);
    return thenMaybe(bothMaybe(this.legs(dto), this.promo(dto)), ([legs, promo]) => ({ category, estimate: this.price(dto, category, legs, promo) }));
  }

  private toJson(estimate: FareEstimate): EstimateView {
    return estimateToJson(estimate, this.config.currency);
  }

  private price(dto: RideRequestFieldsDto, category: VehicleCategoryEntity, legs: RouteLeg[], promo: PromoRule | PromoOutcome | undefined): FareEstimate {
    const surgeMultiplier = this.surge.multiplierAt(dto.pickup, category.id);
    return computeFare({ category, rideType: dto.ride_type, legs, bookedMinutes: dto.duration_minutes, surgeMultiplier, promo });
  }

  /** Outbound leg; round trips add the way back to return_location, or to the pickup. */
  private legs(dto: RideRequestFieldsDto): MaybeAsync<RouteLeg[]> {
    const outbound = this.routing.route(dto.pickup, dto.dropoff);
    if (dto.ride_type !== 'round_trip') return thenMaybe(outbound, (leg) => [leg]);
    return bothMaybe(outbound, this.routing.route(dto.dropoff, dto.return_location ?? dto.pickup));
  }

  private promo(dto: RideRequestFieldsDto): MaybeAsync<PromoRule | PromoOutcome | undefined> {
    return dto.promo_code === undefined ? undefined : this.promos.evaluate(dto.promo_code);
  }
}
