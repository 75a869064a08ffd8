import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RidesModule } from '../rides/rides.module';
import { DriverLocationsService } from './driver-locations.service';
import { DriverRidesService } from './driver-rides.service';
import { DriversController } from './drivers.controller';
import { DriversRepository } from './drivers.repository';
import { DriversService } from './drivers.service';
import { DriverEntity } from './entities/driver.entity';

@Module({
  imports: [TypeOrmModule.forFeature([DriverEntity]), RidesModule],
  controllers: [DriversController],
  providers: [DriversRepository, DriverLocationsService, DriversService, DriverRidesService],
  exports: [DriversService],
})
export class DriversModule {}
