import { PaymentsModule } from '../payments/payments.module';
import { AdminRideRefundsController } from './refunds/admin-ride-refunds.controller';
import { RideRefundsService } from './refunds/ride-refunds.service';
import { RidePaymentEventsService } from './ride-payment-events.service';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { AuditModule } from '../audit/audit.module';
import { PricingModule } from '../pricing/pricing.module';
import { AdminRidesController } from './admin/admin-rides.controller';
import { AdminRidesRepository } from './admin/admin-rides.repository';
import { AdminRidesService } from './admin/admin-rides.service';
import { WalletsModule } from '../wallets/wallets.module';
import { BidsController } from './bids/bids.controller';
import { BidsRepository } from './bids/bids.repository';
import { BidsService } from './bids/bids.service';
import { BidEntity } from './bids/entities/bid.entity';
import { RideChatController } from './chat/ride-chat.controller';
import { RideChatService } from './chat/ride-chat.service';
import { RideMessageEntity } from './chat/entities/ride-message.entity';
import { RideMessagesRepository } from './chat/ride-messages.repository';
import { IdempotencyKeysRepository } from './booking/idempotency-keys.repository';
import { RideBookingService } from './booking/ride-booking.service';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { RideEventEntity } from './entities/ride-event.entity';
import { RidePaymentEntity } from './entities/ride-payment.entity';
import { RideEntity } from './entities/ride.entity';
import { RideDispatchJob } from './jobs/ride-dispatch.job';
import { RideExpiryJob } from './jobs/ride-expiry.job';
import { RideRatingEntity } from './ratings/entities/ride-rating.entity';
import { RideRatingsController } from './ratings/ride-ratings.controller';
import { RideRatingsRepository } from './ratings/ride-ratings.repository';
import { RideTipsRepository } from './tips/ride-tips.repository';
import { PassengerRidesController } from './passenger-rides.controller';
import { DriverRideCache } from './read-models/driver-ride.cache';
import { NearbyPages } from './read-models/open-requests/nearby-pages';
import { OpenRequestsIndex } from './read-models/open-requests/open-requests.index';
import { OpenRequestsRepository } from './read-models/open-requests/open-requests.repository';
import { RidePaymentsRepository } from './read-models/ride-payments.repository';
import { RideViewCache } from './read-models/ride-view.cache';
import { RidesRepository } from './read-models/rides.repository';
import { RidesController } from './rides.controller';
import { TipsController } from './tips/tips.controller';
import { RidesService } from './rides.service';
import { RIDE_COMMAND_HANDLER_PROVIDERS } from './transitions/ride-command-handlers';
import { RideTransitionsService } from './transitions/ride-transitions.service';
import { RideStepsRepository } from './transitions/ride-steps.repository';
import { RideWritesRepository } from './transitions/ride-writes.repository';

/**
 * The marketplace: rides and the bids on them. Sub-folders say what they hold: transitions/ (the
 * one place a ride changes), bids/, booking/, read-models/ (the ride and bid views, their caches),
 * jobs/, chat/ (in-ride messages). Prices come from the pricing module (PricingService), which
 * also backs the categories and estimate endpoints here. No other module touches these tables.
 */
@Module({
  imports: [
    RateLimitModule,
    TypeOrmModule.forFeature([RideEntity, BidEntity, RideEventEntity, RidePaymentEntity, IdempotencyKeyEntity, RideMessageEntity, RideRatingEntity]),
    AuditModule,
    WalletsModule,
    PaymentsModule,
    PricingModule,
  ],
  controllers: [
    RidesController,
    PassengerRidesController,
    BidsController,
    RideChatController,
    TipsController,
    RideRatingsController,
    AdminRidesController,
    AdminRideRefundsController,
  ],
  providers: [
    // read models
    RidesRepository,
    RidePaymentsRepository,
    DriverRideCache,
    RideViewCache,
    OpenRequestsRepository,
    OpenRequestsIndex,
    NearbyPages,
    RidesService,
    // changes
    RideWritesRepository,
    RideStepsRepository,
    ...RIDE_COMMAND_HANDLER_PROVIDERS,
    RideTransitionsService,
    BidsRepository,
    BidsService,
    IdempotencyKeysRepository,
    RideBookingService,
    RideExpiryJob,
    // chat
    RideMessagesRepository,
    RideChatService,
    RideDispatchJob,
    RideRatingsRepository,
    RideTipsRepository,
    // operators
    AdminRidesRepository,
    AdminRidesService,
    // refunds, Stripe's news of a ride's money
    RideRefundsService,
    RidePaymentEventsService,
  ],
  exports: [RidesService, RidePaymentEventsService],
})
export class RidesModule {}
