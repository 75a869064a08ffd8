import { Module } from '@nestjs/common';
import { RidesModule } from '../rides/rides.module';
import { DriversRepository } from './drivers.repository';
import { DriversService } from './drivers.service';

@Module({
  imports: [RidesModule],
  providers: [DriversRepository, DriversService],
  exports: [DriversService],
})
export class DriversModule {}
