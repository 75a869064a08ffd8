import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { EventBusModule, EventBusOptions } from './common/events/event-bus.module';
import { ERROR_STATUS } from './bootstrap/error-statuses';
import { MarketplacePortsModule } from './bootstrap/marketplace-ports.module';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { ERROR_STATUSES } from './common/filters/error-statuses.token';
import { JwtAuthGuard } from './common/guards/jwt-auth.guard';
import { RegisteredAccountGuard } from './common/guards/registered-account.guard';
import { RolesGuard } from './common/guards/roles.guard';
import { RedisModule } from './common/redis/redis.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { AuthModule } from './modules/auth/auth.module';
import { BidsModule } from './modules/rides/bids/bids.module';
import { DriversModule } from './modules/drivers/drivers.module';
import { RealtimeModule } from './modules/realtime/realtime.module';
import { RidesModule } from './modules/rides/rides.module';
import { WalletsModule } from './modules/wallets/wallets.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: EventBusOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        RedisModule,
        EventBusModule.forRoot(options),
        HealthModule,
        MarketplacePortsModule,
        AuthModule,
        RidesModule,
        DriversModule,
        BidsModule,
        RealtimeModule,
        WalletsModule,
      ],
      providers: [
        { provide: ERROR_STATUSES, useValue: ERROR_STATUS },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Order matters: authenticate first, then role, then registration state.
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
        { provide: APP_GUARD, useClass: RegisteredAccountGuard },
      ],
    };
  }
}
