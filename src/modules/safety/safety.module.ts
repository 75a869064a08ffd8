import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { DriversModule } from '../drivers/drivers.module';
import { RidesModule } from '../rides/rides.module';
import { TripSharingModule } from '../trip-sharing/trip-sharing.module';
import { UsersModule } from '../users/users.module';
import { AdminSosController } from './admin-sos.controller';
import { SosAlertEntity } from './entities/sos-alert.entity';
import { SosTextEntity } from './entities/sos-text.entity';
import { RideCheckMonitor } from './ride-check.monitor';
import { SosAlertsRepository } from './sos-alerts.repository';
import { SosController } from './sos.controller';
import { SosService } from './sos.service';
import { SosTextsSender } from './sos-texts.sender';
import './safety.events';

/**
 * Safety on a ride (CONTRACT §14): SOS alerts (operators, the raiser's emergency contacts by SMS with
 * a trip-share link) and the ride check on long stops. The start PIN lives in rides (its transition
 * table's `accept` and `start`); the emergency contacts in users.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SosAlertEntity, SosTextEntity]), AuditModule, RidesModule, DriversModule, TripSharingModule, UsersModule],
  controllers: [SosController, AdminSosController],
  providers: [SosAlertsRepository, SosService, SosTextsSender, RideCheckMonitor],
  exports: [SosService],
})
export class SafetyModule {}
