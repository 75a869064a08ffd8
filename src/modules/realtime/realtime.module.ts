import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DriversModule } from '../drivers/drivers.module';
import { DriversService } from '../drivers/drivers.service';
import { RidesModule } from '../rides/rides.module';
import { RidesService } from '../rides/rides.service';
import { ConnectionRegistry } from './connection-registry';
import { NearbyDriversPort } from './ports/nearby-drivers.port';
import { RideSnapshotPort } from './ports/ride-snapshot.port';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeService } from './realtime.service';

/**
 * The live channel. Nothing imports this module: it listens to domain events and owns the sockets.
 * It reads the marketplace only through two ports, bound here to the services that answer them.
 */
@Module({
  imports: [AuthModule, RidesModule, DriversModule],
  providers: [
    ConnectionRegistry,
    RealtimeService,
    RealtimeGateway,
    { provide: RideSnapshotPort, useExisting: RidesService },
    { provide: NearbyDriversPort, useExisting: DriversService },
  ],
})
export class RealtimeModule {}

// The bindings above are by token; these keep the services' signatures in step with the ports.
type Implements<Port, Service extends Port> = Service;
export type RealtimeBindingsCheck = [Implements<RideSnapshotPort, RidesService>, Implements<NearbyDriversPort, DriversService>];
