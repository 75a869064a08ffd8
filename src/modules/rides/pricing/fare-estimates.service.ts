import { Injectable } from '@nestjs/common';
import type { JsonObject } from '../../../common/events/domain-events';
import { AppConfig } from '../../../config/app-config';
import type { RideRequestFieldsDto } from '../dto/ride-request-fields.dto';
import type { VehicleCategoryEntity } from '../entities/vehicle-category.entity';
import { computeFare, PromoRule } from './fare-calculator';
import { estimateToJson, FareEstimate, PromoOutcome } from './fare-estimate';
import { RouteLeg, RoutingProvider } from './routing.provider';
import { PromoCodesService } from './promo-codes.service';
import { checkRideRequest } from './ride-request.rules';
import { SurgeService } from './surge.service';
import { RideError } from '../rides.errors';
import { VehicleCategoriesService } from './vehicle-categories.service';

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

  /** One estimate for the named category, or `{estimates: [...]}` for every active category that fits the passengers. */
  async estimate(dto: RideRequestFieldsDto & { vehicle_category_id?: number }): Promise<JsonObject> {
    if (dto.vehicle_category_id !== undefined) {
      const { estimate } = await this.estimateFor(dto, dto.vehicle_category_id);
      return estimateToJson(estimate, this.config.currency);
    }
    checkRideRequest(dto, undefined);
    const passengers = dto.passenger_count ?? 1;
    const fitting = (await this.categories.listActive()).filter((c) => c.maxPassengers >= passengers);
    const [legs, promo] = await Promise.all([this.legs(dto), this.promo(dto)]);
    return {
      estimates: fitting.map((category) => estimateToJson(this.price(dto, category, legs, promo), this.config.currency)),
    };
  }

  /** Validates the request against its category and prices it (booking stores the result). */
  async estimateFor(dto: RideRequestFieldsDto, categoryId: number): Promise<{ category: VehicleCategoryEntity; estimate: FareEstimate }> {
    const category = await this.categories.findActive(categoryId);
    if (!category) throw RideError.field('CATEGORY_NOT_FOUND', 'vehicle_category_id');
    checkRideRequest(dto, category);
    const [legs, promo] = await Promise.all([this.legs(dto), this.promo(dto)]);
    return { category, estimate: this.price(dto, category, legs, promo) };
  }

  private price(dto: RideRequestFieldsDto, category: VehicleCategoryEntity, legs: RouteLeg[], promo: PromoRule | PromoOutcome | undefined): FareEstimate {
    const surgeMultiplier = this.surge.multiplierAt(dto.pickup, category.id);
    return computeFare({ category, rideType: dto.ride_type, legs, bookedMinutes: dto.duration_minutes, surgeMultiplier, promo });
  }

  /** Outbound leg; round trips add the way back to return_location, or to the pickup. */
  private async legs(dto: RideRequestFieldsDto): Promise<RouteLeg[]> {
    const outbound = this.routing.route(dto.pickup, dto.dropoff);
    if (dto.ride_type !== 'round_trip') return [await outbound];
    return Promise.all([outbound, this.routing.route(dto.dropoff, dto.return_location ?? dto.pickup)]);
  }

  private promo(dto: RideRequestFieldsDto): Promise<PromoRule | PromoOutcome | undefined> {
    return dto.promo_code === undefined ? Promise.resolve(undefined) : this.promos.evaluate(dto.promo_code);
  }
}
