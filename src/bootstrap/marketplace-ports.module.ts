import { Global, Module } from '@nestjs/common';
import { DriversModule } from '../modules/drivers/drivers.module';
import { DriversService } from '../modules/drivers/drivers.service';
import { SurgeDemandPort, SurgeSupplyPort } from '../modules/pricing/surge-signals.port';
import { BiddingDriversPort } from '../modules/rides/bidding-drivers.port';
import { DriverRatingsPort, PassengerRatingsPort } from '../modules/rides/rating-averages.port';
import { RidePinSettingsPort } from '../modules/rides/ride-pin-settings.port';
import { RidesModule } from '../modules/rides/rides.module';
import { RidesService } from '../modules/rides/rides.service';
import { RidePaymentEventsService } from '../modules/rides/ride-payment-events.service';
import { RidePaymentEventsPort } from '../modules/payments/ride-payment-events.port';
import { UsersModule } from '../modules/users/users.module';
import { UsersService } from '../modules/users/users.service';

/**
 * Binds the marketplace's ports, each once, to the service that answers it: bidding's view of a
 * driver, surge's supply and the driver's rating to DriversService, surge's demand to RidesService
 * (both counts answer from memory), the passenger's rating and start-PIN setting to UsersService, Stripe's news of a ride's
 * money (payments' webhooks) to RidePaymentEventsService. Each service declares
 * `implements`, so the compiler keeps it in step with the port. Global so that the modules below
 * (pricing, rides) can inject a port without importing the modules above them, which import them.
 */
@Global()
@Module({
  imports: [DriversModule, RidesModule, UsersModule],
  providers: [
    { provide: BiddingDriversPort, useExisting: DriversService },
    { provide: SurgeDemandPort, useExisting: RidesService },
    { provide: SurgeSupplyPort, useExisting: DriversService },
    { provide: DriverRatingsPort, useExisting: DriversService },
    { provide: PassengerRatingsPort, useExisting: UsersService },
    { provide: RidePinSettingsPort, useExisting: UsersService },
    { provide: RidePaymentEventsPort, useExisting: RidePaymentEventsService },
  ],
  exports: [BiddingDriversPort, SurgeDemandPort, SurgeSupplyPort, DriverRatingsPort, PassengerRatingsPort, RidePinSettingsPort, RidePaymentEventsPort],
})
export class MarketplacePortsModule {}
