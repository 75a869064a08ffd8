import { Global, Module } from '@nestjs/common';
import { DriversModule } from '../modules/drivers/drivers.module';
import { DriversService } from '../modules/drivers/drivers.service';
import { BiddingDriversPort } from '../modules/rides/ports/bidding-drivers.port';

/**
 * Binds the marketplace's ports to the modules that answer them. Global so that RidesModule can
 * inject the port without importing DriversModule (which imports RidesModule).
 */
@Global()
@Module({
  imports: [DriversModule],
  providers: [{ provide: BiddingDriversPort, useExisting: DriversService }],
  exports: [BiddingDriversPort],
})
export class MarketplacePortsModule {}

// The binding above is by token; this keeps the service's signature in step with the port.
type Implements<Port, Service extends Port> = Service;
export type MarketplaceBindingsCheck = Implements<BiddingDriversPort, DriversService>;
