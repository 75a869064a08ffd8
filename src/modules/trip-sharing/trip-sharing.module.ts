import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { DriversModule } from '../drivers/drivers.module';
import { RidesModule } from '../rides/rides.module';
import { RideShareLinkEntity } from './entities/ride-share-link.entity';
import { ShareLinksRepository } from './share-links.repository';
import { RideSharingController, SharedRidesController } from './trip-sharing.controller';
import { TripSharingService } from './trip-sharing.service';

/**
 * Trip sharing (CONTRACT §11): links a passenger hands out, and the public view behind them. Reads
 * rides through RidesService and the driver's live position through DriverLocationsService; owns
 * only the ride_share_links table.
 */
@Module({
  imports: [TypeOrmModule.forFeature([RideShareLinkEntity]), RateLimitModule, RidesModule, DriversModule],
  controllers: [RideSharingController, SharedRidesController],
  providers: [ShareLinksRepository, TripSharingService],
  exports: [TripSharingService],
})
export class TripSharingModule {}
