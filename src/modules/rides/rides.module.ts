import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DriverRideCache } from './driver-ride.cache';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import { RideBidsRepository } from './repositories/ride-bids.repository';
import { RidesRepository } from './repositories/rides.repository';
import { VehicleCategoriesRepository } from './repositories/vehicle-categories.repository';
import { RidesController } from './rides.controller';
import { RidesService } from './rides.service';
import { VehicleCategoriesService } from './vehicle-categories.service';

@Module({
  imports: [TypeOrmModule.forFeature([VehicleCategoryEntity])],
  controllers: [RidesController],
  providers: [VehicleCategoriesRepository, VehicleCategoriesService, RidesRepository, RideBidsRepository, DriverRideCache, RidesService],
  exports: [VehicleCategoriesService, RidesService],
})
export class RidesModule {}
