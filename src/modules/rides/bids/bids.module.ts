import { Module } from '@nestjs/common';
import { RidesModule } from '../rides.module';
import { BidsController } from './bids.controller';

/**
 * The bidding endpoints. The marketplace (RidesModule) owns the bids table and BidsService, as it
 * owns every ride change; this module only mounts the controller.
 */
@Module({
  imports: [RidesModule],
  controllers: [BidsController],
})
export class BidsModule {}
