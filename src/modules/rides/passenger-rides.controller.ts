import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration, Roles } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { ActiveRideResponseDto, RideHistoryResponseDto } from './dto/ride-response.dto';
import { RideHistoryQueryDto } from './dto/ride-history-query.dto';
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
    description: 'Always 200: `{ride: null}` when there is none. While the ride is requested, `bids` lists its pending bids.',
  })
  @ApiOkResponse({ type: ActiveRideResponseDto })
  active(@CurrentUser() user: AuthenticatedUser): Promise<ActiveRideSnapshot> {
    return this.rides.getActiveRideSnapshot(user);
  }

  @Get()
  @ApiOperation({ summary: 'Ride history, newest first' })
  @ApiOkResponse({ type: RideHistoryResponseDto })
  history(@CurrentUser() user: AuthenticatedUser, @Query() query: RideHistoryQueryDto): Promise<RideHistoryPage> {
    return this.rides.listPassengerHistory(user, query.status, query.page ?? 1, query.limit ?? 20);
  }
}
