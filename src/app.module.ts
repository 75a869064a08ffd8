import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { EventBusModule, EventBusOptions } from './common/events/event-bus.module';
import { ERROR_STATUS } from './bootstrap/error-statuses';
import { MarketplacePortsModule } from './bootstrap/marketplace-ports.module';
import { OutreachChannelsModule } from './bootstrap/outreach-channels.module';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { ERROR_STATUSES } from './common/filters/error-statuses.token';
import { Metrics } from './common/metrics/metrics';
import { MetricsModule } from './common/metrics/metrics.module';
import { JwtAuthGuard } from './common/guards/jwt-auth.guard';
import { RegisteredAccountGuard } from './common/guards/registered-account.guard';
import { RequestBodyGuard } from './common/guards/request-body.guard';
import { OperatorGuard } from './common/guards/operator.guard';
import { RolesGuard } from './common/guards/roles.guard';
import { RedisModule } from './common/redis/redis.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { AuditModule } from './modules/audit/audit.module';
import { AuthModule } from './modules/auth/auth.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { DriversModule } from './modules/drivers/drivers.module';
import { RealtimeModule } from './modules/realtime/realtime.module';
import { RidesModule } from './modules/rides/rides.module';
import { SafetyModule } from './modules/safety/safety.module';
import { TripSharingModule } from './modules/trip-sharing/trip-sharing.module';
import { WalletsModule } from './modules/wallets/wallets.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: EventBusOptions & { metrics?: Metrics } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        RedisModule,
        EventBusModule.forRoot(options),
        MetricsModule.forRoot(options.metrics ?? new Metrics(false)),
        HealthModule,
        MarketplacePortsModule,
        OutreachChannelsModule,
        AuthModule,
        RidesModule,
        DriversModule,
        TripSharingModule,
        SafetyModule,
        RealtimeModule,
        WalletsModule,
        AuditModule,
        PaymentsModule,
      ],
      providers: [
        { provide: ERROR_STATUSES, useValue: ERROR_STATUS },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Order matters: authenticate first, then operators and the rest apart, then role, then registration
        // state, then what the body may be.
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: OperatorGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
        { provide: APP_GUARD, useClass: RegisteredAccountGuard },
        { provide: APP_GUARD, useClass: RequestBodyGuard },
      ],
    };
  }
}
