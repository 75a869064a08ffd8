import { Global, Injectable, Module } from '@nestjs/common';
import type { GeoPoint } from '../common/events/domain-events';
import { DriversModule } from '../modules/drivers/drivers.module';
import { DriversService } from '../modules/drivers/drivers.service';
import { BiddingDriversPort } from '../modules/rides/ports/bidding-drivers.port';
import { SurgeSignalsPort } from '../modules/rides/ports/surge-signals.port';
import { RidesModule } from '../modules/rides/rides.module';
import { RidesService } from '../modules/rides/rides.service';

/**
 * Surge's view of the live marketplace: demand from the rides module's open-requests index, supply
 * from the drivers module's matcher. Both answer from memory.
 */
@Injectable()
export class SurgeSignals implements SurgeSignalsPort {
  constructor(
    private readonly drivers: DriversService,
    private readonly rides: RidesService,
  ) {}

  openRequestsNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number {
    return this.rides.countOpenRequestsNear(point, radiusKm, vehicleCategoryId);
  }

  availableDriversNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number {
    return this.drivers.countAvailableDriversNear(point, radiusKm, vehicleCategoryId);
  }
}

/**
 * Binds the marketplace's ports to the modules that answer them. Global so that RidesModule can
 * inject the port without importing DriversModule (which imports RidesModule).
 */
@Global()
@Module({
  imports: [DriversModule, RidesModule],
  providers: [{ provide: BiddingDriversPort, useExisting: DriversService }, SurgeSignals, { provide: SurgeSignalsPort, useExisting: SurgeSignals }],
  exports: [BiddingDriversPort, SurgeSignalsPort],
})
export class MarketplacePortsModule {}

// The binding above is by token; this keeps the service's signature in step with the port.
type Implements<Port, Service extends Port> = Service;
export type MarketplaceBindingsCheck = Implements<BiddingDriversPort, DriversService>;
