import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration, Roles } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { ActiveRideResponseDto, RideHistoryResponseDto } from './dto/ride-response.dto';
import { RideHistoryQueryDto } from './dto/ride-history-query.dto';
import { PageQueryDto } from '../../common/http/page-query.dto';
import { ActiveRideSnapshot, RideHistoryPage, RidesService } from './rides.service';

@ApiTags('passenger')
@ApiBearerAuth()
@Roles('passenger')
@RequiresRegistration()
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered passenger account' })
@Controller('passenger/rides')
export class PassengerRidesController {
  constructor(private readonly rides: RidesService) {}

  @Get('active')
  @ApiOperation({
    summary: "The caller's non-final ride",
    description:
      'Always 200: `{ride: null}` when there is none. While the ride is requested, `bids` lists its pending bids. ' +
      'A ride booked for later is not here until it is dispatched (see /passenger/rides/scheduled).',
  })
  @ApiOkResponse({ type: ActiveRideResponseDto })
  active(@CurrentUser() user: AuthenticatedUser): Promise<ActiveRideSnapshot> {
    return this.rides.getActiveRideSnapshot(user);
  }

  @Get('scheduled')
  @ApiOperation({
    summary: "The caller's rides booked for later, soonest pickup first",
    description:
      'Rides in status `scheduled` (booked with `pickup_at`, not yet dispatched), as `{items, page, limit, total}` like the history. ' +
      'A ride leaves this list when it is dispatched (then it is the active ride) or cancelled; the history lists it throughout.',
  })
  @ApiOkResponse({ type: RideHistoryResponseDto })
  scheduled(@CurrentUser() user: AuthenticatedUser, @Query() query: PageQueryDto): Promise<RideHistoryPage> {
    return this.rides.listScheduledRides(user, query.page ?? 1, query.limit ?? 20);
  }

  @Get()
  @ApiOperation({ summary: 'Ride history, newest first' })
  @ApiOkResponse({ type: RideHistoryResponseDto })
  history(@CurrentUser() user: AuthenticatedUser, @Query() query: RideHistoryQueryDto): Promise<RideHistoryPage> {
    return this.rides.listPassengerHistory(user, query.status, query.page ?? 1, query.limit ?? 20);
  }
}
