import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WalletsModule } from '../wallets/wallets.module';
import { BidsRepository } from './bids/bids.repository';
import { BidsService } from './bids/bids.service';
import { BidEntity } from './bids/entities/bid.entity';
import { DriverRideCache } from './driver-ride.cache';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { PromoCodeEntity } from './entities/promo-code.entity';
import { RideEventEntity } from './entities/ride-event.entity';
import { RidePaymentEntity } from './entities/ride-payment.entity';
import { RideEntity } from './entities/ride.entity';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import { FareEstimatesService } from './fare-estimates.service';
import { GreatCircleRoutingProvider, RoutingProvider } from './fare/routing.provider';
import { PassengerRidesController } from './passenger-rides.controller';
import { PromoCodesService } from './promo-codes.service';
import { IdempotencyKeysRepository } from './repositories/idempotency-keys.repository';
import { PromoCodesRepository } from './repositories/promo-codes.repository';
import { RidePaymentsRepository } from './repositories/ride-payments.repository';
import { RideWritesRepository } from './repositories/ride-writes.repository';
import { RidesRepository } from './repositories/rides.repository';
import { VehicleCategoriesRepository } from './repositories/vehicle-categories.repository';
import { RideBookingService } from './ride-booking.service';
import { RideExpiryJob } from './ride-expiry.job';
import { RideTransitionsService } from './ride-transitions.service';
import { RideViewCache } from './ride-view.cache';
import { RidesController } from './rides.controller';
import { RidesService } from './rides.service';
import { VehicleCategoriesService } from './vehicle-categories.service';

/**
 * The marketplace: rides and their bids (bids/). RideTransitionsService is the only way a ride
 * changes; no other module touches the rides or bids tables.
 */
@Module({
  imports: [
    RateLimitModule,
    TypeOrmModule.forFeature([VehicleCategoryEntity, RideEntity, BidEntity, RideEventEntity, RidePaymentEntity, PromoCodeEntity, IdempotencyKeyEntity]),
    WalletsModule,
  ],
  controllers: [RidesController, PassengerRidesController],
  providers: [
    VehicleCategoriesRepository,
    RidesRepository,
    RideWritesRepository,
    BidsRepository,
    RidePaymentsRepository,
    PromoCodesRepository,
    IdempotencyKeysRepository,
    VehicleCategoriesService,
    { provide: RoutingProvider, useClass: GreatCircleRoutingProvider },
    PromoCodesService,
    FareEstimatesService,
    DriverRideCache,
    RideViewCache,
    RidesService,
    RideBookingService,
    RideTransitionsService,
    BidsService,
    RideExpiryJob,
  ],
  exports: [VehicleCategoriesService, RidesService, PromoCodesService, BidsService],
})
export class RidesModule {}
