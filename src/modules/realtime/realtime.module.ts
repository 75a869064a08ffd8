import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConnectionRegistry } from './connection-registry';
import { NearbyDriversPort } from './ports/nearby-drivers.port';
import { RideSnapshotPort } from './ports/ride-snapshot.port';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeService } from './realtime.service';

/**
 * The live channel: nothing imports this module; it listens to domain events and owns the sockets.
 * Interim bindings until the marketplace services land: no snapshot ride, no nearby drivers.
 */
@Module({
  imports: [AuthModule],
  providers: [
    ConnectionRegistry,
    RealtimeService,
    RealtimeGateway,
    { provide: RideSnapshotPort, useValue: { getActiveRideSnapshot: async () => ({ ride: null }) } },
    { provide: NearbyDriversPort, useValue: { findOnlineDriverIdsNear: async () => [] } },
  ],
})
export class RealtimeModule {}
