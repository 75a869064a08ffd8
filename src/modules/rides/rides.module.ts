import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import { VehicleCategoriesRepository } from './repositories/vehicle-categories.repository';
import { RidesController } from './rides.controller';
import { VehicleCategoriesService } from './vehicle-categories.service';

@Module({
  imports: [TypeOrmModule.forFeature([VehicleCategoryEntity])],
  controllers: [RidesController],
  providers: [VehicleCategoriesRepository, VehicleCategoriesService],
  exports: [VehicleCategoriesService],
})
export class RidesModule {}
