import { Global, Module } from '@nestjs/common';
import { DriversModule } from '../modules/drivers/drivers.module';
import { DriversService } from '../modules/drivers/drivers.service';
import { SurgeDemandPort, SurgeSupplyPort } from '../modules/pricing/surge-signals.port';
import { BiddingDriversPort } from '../modules/rides/ports/bidding-drivers.port';
import { RidesModule } from '../modules/rides/rides.module';
import { RidesService } from '../modules/rides/rides.service';

/**
 * Binds the marketplace's ports to the services that answer them, each once: bidding's view of a
 * driver and surge's supply to DriversService, surge's demand to RidesService (both answer from
 * memory). Global so that the modules below (pricing, rides) can inject a port without importing the
 * modules above them, which import them.
 */
@Global()
@Module({
  imports: [DriversModule, RidesModule],
  providers: [
    { provide: BiddingDriversPort, useExisting: DriversService },
    { provide: SurgeDemandPort, useExisting: RidesService },
    { provide: SurgeSupplyPort, useExisting: DriversService },
  ],
  exports: [BiddingDriversPort, SurgeDemandPort, SurgeSupplyPort],
})
export class MarketplacePortsModule {}

// The binding is by token and DriversService does not declare this port (surge's it does): this
// keeps the service's signature in step with it.
type Implements<Port, Service extends Port> = Service;
export type MarketplaceBindingsCheck = Implements<BiddingDriversPort, DriversService>;
