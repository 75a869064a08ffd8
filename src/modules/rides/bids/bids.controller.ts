import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration, Roles } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { BidResponseDto, RideResponseDto } from '../dto/ride-response.dto';
import { BidsService } from './bids.service';
import { SubmitBidDto } from './dto/submit-bid.dto';
import type { RideView } from '../read-models/ride-view';
import type { BidView } from './bid-view';

@ApiTags('bids')
@ApiBearerAuth()
@RequiresRegistration()
@Controller()
export class BidsController {
  constructor(private readonly bids: BidsService) {}

  @Post('driver/rides/:ride_id/bid')
  @Roles('driver')
  @ApiOperation({
    summary: 'Bid on a requested ride (approved, online, free, category served)',
    description: 'One live bid per driver per ride: bidding again replaces amount and ETA while the ride is requested.',
  })
  @ApiCreatedResponse({ type: BidResponseDto })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not an approved, online driver of the ride’s category' })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Ride no longer requested, driver busy, or bid no longer pending' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'More than BID_RATE_LIMIT_PER_MINUTE bids this minute' })
  submit(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() dto: SubmitBidDto): Promise<BidView> {
    return this.bids.submit(user.id, rideId, dto.amount, dto.eta_minutes);
  }

  @Get('rides/:ride_id/bids')
  @Roles('passenger')
  @ApiOperation({ summary: "The ride's bids, cheapest first (its passenger only)" })
  @ApiOkResponse({ type: BidResponseDto, isArray: true })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  list(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string): Promise<BidView[]> {
    return this.bids.listForPassenger(user, rideId);
  }

  @Post('rides/:ride_id/bids/:bid_id/accept')
  @HttpCode(200)
  @Roles('passenger')
  @ApiOperation({ summary: 'Accept a bid (exactly once): the ride becomes accepted with the bid amount as fare' })
  @ApiOkResponse({ type: RideResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Ride not requested, bid not pending, driver busy, or wallet balance too low' })
  accept(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Param('bid_id') bidId: string): Promise<RideView> {
    return this.bids.accept(user, rideId, bidId);
  }
}
