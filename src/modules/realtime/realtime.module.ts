import { Module } from '@nestjs/common';
import { REDIS_CLIENT, RedisClient } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { AuthModule } from '../auth/auth.module';
import { DriversModule } from '../drivers/drivers.module';
import { DriversService } from '../drivers/drivers.service';
import { RidesModule } from '../rides/rides.module';
import { RidesService } from '../rides/rides.service';
import { UsersModule } from '../users/users.module';
import { UsersService } from '../users/users.service';
import { ConnectionRegistry } from './connection-registry';
import { NearbyDriversPort } from './ports/nearby-drivers.port';
import { PushTokensPort } from './ports/push-tokens.port';
import { RideSnapshotPort } from './ports/ride-snapshot.port';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeService } from './realtime.service';
import { Presence, SingleInstancePresence } from './presence/presence';
import { RedisPresence } from './presence/redis-presence';
import { PushChannel } from './push/push-channel';

/**
 * Delivery to users: the live channel (the WebSocket) and push to the apps that are not on it.
 * Nothing imports this module: it listens to domain events and owns the sockets and the presence.
 * It reads the other modules only through ports, bound here to the services that answer them.
 */
@Module({
  imports: [AuthModule, RidesModule, DriversModule, UsersModule],
  providers: [
    ConnectionRegistry,
    RealtimeService,
    RealtimeGateway,
    PushChannel,
    {
      provide: Presence,
      inject: [REDIS_CLIENT, AppConfig],
      useFactory: (redis: RedisClient, config: AppConfig): Presence => (redis ? new RedisPresence(redis, config.redisKeyPrefix) : new SingleInstancePresence()),
    },
    { provide: RideSnapshotPort, useExisting: RidesService },
    { provide: NearbyDriversPort, useExisting: DriversService },
    { provide: PushTokensPort, useExisting: UsersService },
  ],
})
export class RealtimeModule {}

// The bindings above are by token; these keep the services' signatures in step with the ports.
type Implements<Port, Service extends Port> = Service;
export type RealtimeBindingsCheck = [
  Implements<RideSnapshotPort, RidesService>,
  Implements<NearbyDriversPort, DriversService>,
  Implements<PushTokensPort, UsersService>,
];
