import { RateLimitModule } from '../../../common/rate-limit/rate-limit.module';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DriversModule } from '../../drivers/drivers.module';
import { RidesModule } from '../rides.module';
import { WalletsModule } from '../../wallets/wallets.module';
import { BidsController } from './bids.controller';
import { BidsRepository } from './bids.repository';
import { BidsService } from './bids.service';
import { BidEntity } from './entities/bid.entity';

@Module({
  imports: [
    RateLimitModule,TypeOrmModule.forFeature([BidEntity]), RidesModule, DriversModule, WalletsModule],
  controllers: [BidsController],
  providers: [BidsRepository, BidsService],
  exports: [BidsService],
})
export class BidsModule {}
