import { Module } from '@nestjs/common';
import { DriversModule } from '../drivers/drivers.module';
import { RidesModule } from '../rides/rides.module';
import { WalletsModule } from '../wallets/wallets.module';
import { BidsController } from './bids.controller';
import { BidsRepository } from './bids.repository';
import { BidsService } from './bids.service';

@Module({
  imports: [RidesModule, DriversModule, WalletsModule],
  controllers: [BidsController],
  providers: [BidsRepository, BidsService],
  exports: [BidsService],
})
export class BidsModule {}
