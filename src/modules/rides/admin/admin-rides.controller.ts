import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { OperatorAction } from '../../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { ReasonDto } from '../../../common/http/reason.dto';
import { RideResponseDto } from '../dto/ride-response.dto';
import type { RideView } from '../read-models/ride-view';
import { AdminRideView, AdminRidesService } from './admin-rides.service';
import { AdminRidePageResponseDto, AdminRideResponseDto, AdminRidesQueryDto } from './dto/admin-rides.dto';

@Controller('admin/rides')
export class AdminRidesController {
  constructor(private readonly rides: AdminRidesService) {}

  @Get()
  @OperatorAction('read')
  @ApiOperation({ summary: 'Every ride, newest first, optionally by status, payment status, passenger or driver' })
  @ApiOkResponse({ type: AdminRidePageResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'An unknown status or payment status, a bad page or id' })
  list(@Query() query: AdminRidesQueryDto): Promise<AdminRidePageResponseDto> {
    return this.rides.list(query);
  }

  @Get(':ride_id')
  @OperatorAction('read')
  @ApiOperation({
    summary: 'A ride with its history',
    description: '`events`: every status it reached, who moved it there and when, oldest first.',
  })
  @ApiOkResponse({ type: AdminRideResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Ride not found' })
  get(@Param('ride_id') rideId: string): Promise<AdminRideView> {
    return this.rides.get(rideId);
  }

  @Post(':ride_id/cancel')
  @HttpCode(200)
  @OperatorAction('rides.cancel')
  @ApiOperation({
    summary: 'Cancel a ride that is not over',
    description:
      '`cancelled_by: "operator"`, the reason as `cancel_reason`, no cancellation fee; the passenger, the driver and any bidder are told as on any cancellation. Recorded in the audit trail.',
  })
  @ApiOkResponse({ type: RideResponseDto, description: 'The cancelled ride' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Ride not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Ride can no longer be cancelled (it is completed, cancelled or expired)' })
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() body: ReasonDto): Promise<RideView> {
    return this.rides.cancel(rideId, { actorId: user.id, reason: body.reason });
  }
}
