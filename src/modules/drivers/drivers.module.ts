import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { REDIS_CLIENT, RedisClient } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { PaymentsModule } from '../payments/payments.module';
import { PricingModule } from '../pricing/pricing.module';
import { RidesModule } from '../rides/rides.module';
import { DriverLocationsService } from './driver-locations.service';
import { DriverRidesService } from './driver-rides.service';
import { DriversController } from './drivers.controller';
import { DriversRepository } from './drivers.repository';
import { DriversService } from './drivers.service';
import { DriverEntity } from './entities/driver.entity';
import { DriverDocumentEntity } from './entities/driver-document.entity';
import { DriverDocumentsController } from './documents/driver-documents.controller';
import { DriverDocumentsRepository } from './documents/driver-documents.repository';
import { DriverDocumentsService } from './documents/driver-documents.service';
import { AdminDriversController } from './admin-drivers.controller';
import { AuditModule } from '../audit/audit.module';
import { FileStorageModule } from '../../common/storage/file-storage.module';
import { AdminLiveController } from './live-view/admin-live.controller';
import { LiveViewService } from './live-view/live-view.service';
import { LivePositionStore } from './live-positions.store';
import { DriverMatchingService } from './matching/driver-matching.service';
import { MemoryLivePositionStore } from './memory-live-positions';
import { RedisLivePositionStore } from './redis-live-positions';

@Module({
  imports: [TypeOrmModule.forFeature([DriverEntity, DriverDocumentEntity]), FileStorageModule, AuditModule, RidesModule, PricingModule, PaymentsModule],
  controllers: [DriversController, DriverDocumentsController, AdminDriversController, AdminLiveController],
  providers: [
    DriversRepository,
    DriverMatchingService,
    DriverLocationsService,
    DriversService,
    DriverRidesService,
    DriverDocumentsRepository,
    DriverDocumentsService,
    LiveViewService,
    {
      // One instance sees every heartbeat without Redis; with it, every instance shares one store.
      provide: LivePositionStore,
      inject: [REDIS_CLIENT, AppConfig],
      useFactory: (redis: RedisClient, config: AppConfig): LivePositionStore => {
        const maxAgeMs = config.driverLocationMaxAgeSeconds * 1000;
        return redis
          ? new RedisLivePositionStore(redis, config.redisKeyPrefix, maxAgeMs)
          : new MemoryLivePositionStore(maxAgeMs, config.livePositionsMaxEntries);
      },
    },
  ],
  exports: [DriversService, DriverLocationsService],
})
export class DriversModule {}
