import { Controller, Delete, Get, Header, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentUser, Public, RequiresRegistration } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { ShareLinkResponseDto } from './dto/share-link-response.dto';
import { SharedRideResponseDto } from './dto/shared-ride-response.dto';
import type { SharedRideView, ShareLinkView } from './shared-ride.view';
import { TripSharingService } from './trip-sharing.service';

@ApiTags('sharing')
@Controller('rides')
export class RideSharingController {
  constructor(private readonly sharing: TripSharingService) {}

  @Post(':ride_id/share')
  @RequiresRegistration()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Passenger: a link anyone can open to follow this ride live (no login)',
    description: 'Each call makes a new link; every link ends with DELETE, or 30 minutes after the ride is final.',
  })
  @ApiCreatedResponse({ type: ShareLinkResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or the caller is not its passenger' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The ride is final (completed, cancelled or expired)' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'More than SHARE_LINKS_PER_HOUR links this hour' })
  share(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string): Promise<ShareLinkView> {
    return this.sharing.share(rideId, user);
  }

  @Delete(':ride_id/share')
  @HttpCode(204)
  @RequiresRegistration()
  @ApiOperation({ summary: 'Passenger: end every share link of the ride' })
  @ApiNoContentResponse({ description: 'Every link of the ride now answers 404' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or the caller is not its passenger' })
  endSharing(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string): Promise<void> {
    return this.sharing.endSharing(rideId, user);
  }
}

@ApiTags('sharing')
@Controller('shared-rides')
export class SharedRidesController {
  constructor(private readonly sharing: TripSharingService) {}

  @Public()
  @Get(':token')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'A shared ride, as its link shows it (no login)',
    description:
      "Status, pickup, dropoff, the driver and car, and the driver's live position; never a phone, e-mail, user id or the " +
      "passenger's name. Poll it every few seconds; rate-limited per IP (SHARED_RIDE_RATE_LIMIT_PER_IP_PER_MINUTE).",
  })
  @ApiParam({ name: 'token', description: 'The token of POST /rides/{ride_id}/share' })
  @ApiOkResponse({ type: SharedRideResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown token, or the link was ended' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many requests from this IP this minute' })
  view(@Param('token') token: string, @Req() request: FastifyRequest): Promise<SharedRideView> {
    return this.sharing.viewShared(token, request.ip);
  }
}
