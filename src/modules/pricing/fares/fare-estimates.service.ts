import { Injectable } from '@nestjs/common';
import type { JsonObject } from '../../../common/events/domain-events';
import { AppConfig } from '../../../config/app-config';
import type { RideRequestFieldsDto } from '../dto/ride-request-fields.dto';
import type { VehicleCategoryEntity } from '../entities/vehicle-category.entity';
import { computeFare, PromoRule } from './fare-calculator';
import { estimateToJson, FareEstimate, PromoOutcome } from '../fare-estimate';
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
   * needs I/O: categories in memory, no promo code, a routing engine that answers at once.
   */
  estimate(dto: RideRequestFieldsDto & { vehicle_category_id?: number }): JsonObject | Promise<JsonObject> {
    if (dto.vehicle_category_id !== undefined) {
      const quoted = this.estimateFor(dto, dto.vehicle_category_id);
      return quoted instanceof Promise ? quoted.then((q) => this.toJson(q.estimate)) : this.toJson(quoted.estimate);
    }
    return this.estimateEvery(dto);
  }

  private async estimateEvery(dto: RideRequestFieldsDto): Promise<JsonObject> {
    checkRideRequest(dto, undefined);
    const passengers = dto.passenger_count ?? 1;
    const fitting = (await this.categories.listActive()).filter((c) => c.maxPassengers >= passengers);
    const [legs, promo] = await Promise.all([this.legs(dto), this.promo(dto)]);
    return {
      estimates: fitting.map((category) => this.toJson(this.price(dto, category, legs, promo))),
    };
  }

  /** Validates the request against its category and prices it (booking stores the result). */
  estimateFor(dto: RideRequestFieldsDto, categoryId: number): Quote | Promise<Quote> {
    const category = this.categories.findActive(categoryId);
    return category instanceof Promise ? category.then((c) => this.quote(dto, c)) : this.quote(dto, category);
  }

  private quote(dto: RideRequestFieldsDto, category: VehicleCategoryEntity | undefined): Quote | Promise<Quote> {
    if (!category) throw PricingError.field('CATEGORY_NOT_FOUND', 'vehicle_category_id');
    checkRideRequest(dto, category);
    const legs = this.legs(dto);
    const promo = this.promo(dto);
    if (legs instanceof Promise || promo instanceof Promise) {
      return Promise.all([legs, promo]).then(([l, p]) => ({ category, estimate: this.price(dto, category, l, p) }));
    }
    return { category, estimate: this.price(dto, category, legs, promo) };
  }

  private toJson(estimate: FareEstimate): JsonObject {
    return estimateToJson(estimate, this.config.currency);
  }

  private price(dto: RideRequestFieldsDto, category: VehicleCategoryEntity, legs: RouteLeg[], promo: PromoRule | PromoOutcome | undefined): FareEstimate {
    const surgeMultiplier = this.surge.multiplierAt(dto.pickup, category.id);
    return computeFare({ category, rideType: dto.ride_type, legs, bookedMinutes: dto.duration_minutes, surgeMultiplier, promo });
  }

  /** Outbound leg; round trips add the way back to return_location, or to the pickup. */
  private legs(dto: RideRequestFieldsDto): RouteLeg[] | Promise<RouteLeg[]> {
    const outbound = this.routing.route(dto.pickup, dto.dropoff);
    if (dto.ride_type !== 'round_trip') return outbound instanceof Promise ? outbound.then((leg) => [leg]) : [outbound];
    const back = this.routing.route(dto.dropoff, dto.return_location ?? dto.pickup);
    return outbound instanceof Promise || back instanceof Promise ? Promise.all([outbound, back]) : [outbound, back];
  }

  private promo(dto: RideRequestFieldsDto): PromoRule | PromoOutcome | undefined | Promise<PromoRule | PromoOutcome | undefined> {
    return dto.promo_code === undefined ? undefined : this.promos.evaluate(dto.promo_code);
  }
}
