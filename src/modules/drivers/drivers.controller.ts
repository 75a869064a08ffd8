import { Body, Controller, Get, Headers, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiNotModifiedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration, Roles } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import type { FastifyReply } from 'fastify';
import { sendTagged } from '../../common/http/conditional-get';
import { CommonError } from '../../common/errors/common.errors';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { ActiveRideResponseDto } from '../rides/dto/ride-response.dto';
import type { ActiveRideSnapshot, DriverEarningsView } from '../rides/rides.service';
import { DriverLocationsService } from './driver-locations.service';
import { DriverRidesService } from './driver-rides.service';
import { DriverProfileView, LocationAcceptedView, locationAcceptedToJson } from './driver-profile.view';
import { DriversService } from './drivers.service';
import { DriverProfileResponseDto, EarningsResponseDto, LocationAcceptedResponseDto } from './dto/driver-response.dto';
import { EarningsQueryDto } from './dto/earnings-query.dto';
import { NearbyRideResponseDto } from './dto/nearby-ride-response.dto';
import { NEARBY_DEFAULT_RADIUS_KM, NEARBY_MAX_RADIUS_KM, NearbyRidesQueryDto } from './dto/nearby-rides-query.dto';
import { UpdateDriverProfileDto } from './dto/update-driver-profile.dto';
import { UpdateDriverStatusDto } from './dto/update-driver-status.dto';
import { UpdateLocationDto } from './dto/update-location.dto';

@ApiTags('driver')
@ApiBearerAuth()
@Roles('driver')
@RequiresRegistration()
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered driver account (or, where noted, not approved)' })
@Controller('driver')
export class DriversController {
  constructor(
    private readonly drivers: DriversService,
    private readonly locations: DriverLocationsService,
    private readonly driverRides: DriverRidesService,
  ) {}

  @Get('profile')
  @ApiOperation({ summary: "The caller's driver profile" })
  @ApiOkResponse({ type: DriverProfileResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  getProfile(@CurrentUser() user: AuthenticatedUser): Promise<DriverProfileView> {
    return this.drivers.getProfile(user.id);
  }

  @Put('profile')
  @ApiOperation({ summary: 'Update vehicle and licence details (only the fields sent)' })
  @ApiOkResponse({ type: DriverProfileResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  async updateProfile(@CurrentUser() user: AuthenticatedUser, @Body() dto: UpdateDriverProfileDto): Promise<DriverProfileView> {
    return this.drivers.toJson(await this.drivers.updateProfile(user.id, dto));
  }

  @Put('status')
  @ApiOperation({ summary: 'Go online or offline (online: approved drivers only, else 403)' })
  @ApiOkResponse({ type: DriverProfileResponseDto })
  async setStatus(@CurrentUser() user: AuthenticatedUser, @Body() dto: UpdateDriverStatusDto): Promise<DriverProfileView> {
    return this.drivers.toJson(await this.drivers.setOnline(user.id, dto.is_online));
  }

  @Put('location')
  @ApiOperation({
    summary: 'Location heartbeat',
    description:
      'Counts for matching as soon as it is answered, on every instance; written to the database in batches. ' +
      'To stay matchable (receive ride_requested) an online driver app must send a heartbeat at least every ' +
      'DRIVER_LOCATION_MAX_AGE_SECONDS (default 60 s); every 5-10 s is recommended. A driver silent for longer ' +
      'is not offered new rides until the next heartbeat. The passenger of the driver’s current ride gets driver_location.',
  })
  @ApiOkResponse({ type: LocationAcceptedResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  async updateLocation(@CurrentUser() user: AuthenticatedUser, @Body() dto: UpdateLocationDto): Promise<LocationAcceptedView> {
    return locationAcceptedToJson(await this.locations.record(user.id, dto));
  }

  @Get('rides/nearby')
  @ApiOperation({
    summary: 'Requested rides near the driver, nearest first (approved drivers only)',
    description:
      `Point defaults to the last location; radius_km defaults to ${NEARBY_DEFAULT_RADIUS_KM}, at most ${NEARBY_MAX_RADIUS_KM}; at most 50 rides, each with distance_km. ` +
      'The page carries an `ETag`: a poll sending it back in `If-None-Match` gets 304 and no body while the page is unchanged. ' +
      'gzip when `Accept-Encoding` allows it.',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of the page the client holds' })
  @ApiOkResponse({ type: NearbyRideResponseDto, isArray: true })
  @ApiNotModifiedResponse({ description: 'The page named by If-None-Match is still current (no body)' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Bad coordinates, or no location known yet' })
  async nearby(
    @CurrentUser() user: AuthenticatedUser,
    @Query() q: NearbyRidesQueryDto,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if ((q.latitude === undefined) !== (q.longitude === undefined)) {
      throw CommonError.validation(q.latitude === undefined ? 'latitude' : 'longitude', 'Send latitude and longitude together');
    }
    const page = await this.driverRides.nearby(user.id, q.latitude, q.longitude, q.radius_km);
    void sendTagged(reply, page, ifNoneMatch, acceptEncoding);
  }

  @Get('rides/active')
  @ApiOperation({ summary: "The driver's assigned non-final ride", description: 'Always 200: `{ride: null}` when there is none.' })
  @ApiOkResponse({ type: ActiveRideResponseDto })
  active(@CurrentUser() user: AuthenticatedUser): Promise<ActiveRideSnapshot> {
    return this.driverRides.active(user);
  }

  @Get('earnings')
  @ApiOperation({ summary: 'Earnings today, this week, this month (UTC) and in total, with the completed rides behind them' })
  @ApiOkResponse({ type: EarningsResponseDto })
  earnings(@CurrentUser() user: AuthenticatedUser, @Query() q: EarningsQueryDto): Promise<DriverEarningsView> {
    return this.driverRides.earnings(user.id, q.page ?? 1, q.limit ?? 20);
  }
}
