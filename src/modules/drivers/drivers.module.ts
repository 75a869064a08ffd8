import { Module } from '@nestjs/common';
import { RidesModule } from '../rides/rides.module';
import { DriverLocationsService } from './driver-locations.service';
import { DriverRidesService } from './driver-rides.service';
import { DriversController } from './drivers.controller';
import { DriversRepository } from './drivers.repository';
import { DriversService } from './drivers.service';

@Module({
  imports: [RidesModule],
  controllers: [DriversController],
  providers: [DriversRepository, DriverLocationsService, DriversService, DriverRidesService],
  exports: [DriversService],
})
export class DriversModule {}
