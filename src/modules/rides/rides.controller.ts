import { Body, Controller, Get, Header, Headers, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { MaybeAsync } from '../../common/async/maybe-async';
import type { Serialized } from '../../common/http/serialized';
import { CurrentUser, Public, RequiresRegistration, Roles } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { CommonError } from '../../common/errors/common.errors';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { BookRideDto } from './dto/book-ride.dto';
import { CancelRideDto } from './dto/cancel-ride.dto';
import { RaiseOfferDto } from './offers/dto/raise-offer.dto';
import { toMinor } from '../../common/money';
import { EstimateRideDto } from '../pricing/dto/estimate-ride.dto';
import { EstimateListResponseDto, EstimateResponseDto } from '../pricing/dto/estimate-response.dto';
import { VehicleCategoryResponseDto } from '../pricing/dto/vehicle-category-response.dto';
import { PricingService } from '../pricing/pricing.service';
import { RideResponseDto } from './dto/ride-response.dto';
import { UpdateRideStatusDto } from './dto/update-ride-status.dto';
import { RideBookingService } from './booking/ride-booking.service';
import { driverStep } from './transitions/ride-command';
import { RideTransitionsService } from './transitions/ride-transitions.service';
import { RidesService } from './rides.service';
import type { RideView } from './read-models/ride-view';
import type { EstimateListView, EstimateView } from '../pricing/fare-estimate';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

@ApiTags('rides')
@ApiExtraModels(EstimateResponseDto, EstimateListResponseDto)
@Controller('rides')
export class RidesController {
  constructor(
    private readonly pricing: PricingService,
    private readonly booking: RideBookingService,
    private readonly transitions: RideTransitionsService,
    private readonly rides: RidesService,
  ) {}

  @Public()
  @Get('categories')
  @ApiOperation({ summary: 'List the active vehicle categories with their fares' })
  @ApiOkResponse({ type: VehicleCategoryResponseDto, isArray: true })
  listCategories(): Promise<VehicleCategoryResponseDto[]> {
    return this.pricing.listActiveCategories();
  }

  @Post('estimate')
  @HttpCode(200)
  @Roles('passenger')
  @RequiresRegistration()
  @ApiOperation({
    summary: 'Fare estimate (creates nothing)',
    description:
      'With vehicle_category_id: one estimate. Without it: `{estimates: [...]}`, one per active category that fits ' +
      'passenger_count. A promo code that does not apply never fails the estimate: `promo.applied` is false with a `reason`.',
  })
  @ApiOkResponse({ schema: { oneOf: [{ $ref: getSchemaPath(EstimateResponseDto) }, { $ref: getSchemaPath(EstimateListResponseDto) }] } })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A field is invalid (details name it)' })
  estimate(@Body() dto: EstimateRideDto): MaybeAsync<EstimateView | EstimateListView> {
    return this.pricing.estimate(dto);
  }

  @Post('book')
  @Roles('passenger')
  @RequiresRegistration()
  @ApiOperation({
    summary: 'Book a ride (status requested)',
    description:
      'Send an Idempotency-Key to make retries safe: the same key and body within 24 hours return the same ride with 200 ' +
      '(a new booking is 201); the same key with a different body is 409.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1-200 visible ASCII characters' })
  @ApiCreatedResponse({ type: RideResponseDto })
  @ApiOkResponse({ type: RideResponseDto, description: 'Idempotent replay: the ride booked earlier with this key' })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered passenger' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'A non-final ride exists, or the key was used with another body' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'More than BOOKING_RATE_LIMIT_PER_HOUR booking attempts this hour' })
  async book(
    @CurrentUser() user: AuthenticatedUser,
    @Body() dto: BookRideDto,
    @Headers('idempotency-key') key: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw CommonError.validation('Idempotency-Key', 'Idempotency-Key must be 1 to 200 visible ASCII characters');
    }
    const result = await this.booking.book(user, dto, key);
    await reply.status(result.created ? 201 : 200).send(result.ride);
  }

  @Get(':ride_id')
  @RequiresRegistration()
  @ApiOperation({ summary: 'Ride details (its passenger, its driver, or a driver whose bid on it is pending)' })
  @ApiOkResponse({ type: RideResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or not visible to the caller' })
  @Header('Content-Type', 'application/json; charset=utf-8')
  getRide(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string): MaybeAsync<Serialized<RideResponseDto>> {
    return this.rides.getRideBodyFor(rideId, user);
  }

  @Post(':ride_id/cancel')
  @HttpCode(200)
  @RequiresRegistration()
  @ApiOperation({ summary: 'Cancel: passenger (requested, accepted, driver_arrived) or assigned driver (accepted, driver_arrived)' })
  @ApiOkResponse({ type: RideResponseDto, description: 'The cancelled ride; cancelled_by says who' })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The ride can no longer be cancelled by the caller' })
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() dto: CancelRideDto): Promise<RideView> {
    return this.transitions.apply(rideId, { type: 'cancel', reason: dto?.reason?.trim() || null }, user);
  }

  @Post(':ride_id/no-show')
  @HttpCode(200)
  @Roles('driver')
  @ApiOperation({
    summary: 'The passenger did not come: the assigned driver cancels once the ride has been driver_arrived for NO_SHOW_WAIT_SECONDS',
    description:
      'The ride becomes cancelled with `cancelled_by: "driver"` and `cancel_reason: "no_show"`; the passenger pays the CANCELLATION_FEE ' +
      '(card rides from the hold, the rest released; wallet rides as far as the balance goes; cash rides nothing).',
  })
  @ApiOkResponse({ type: RideResponseDto, description: 'The cancelled ride, with its cancellation_fee' })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Wait for the passenger a little longer (earlier than NO_SHOW_WAIT_SECONDS), or the ride is not driver_arrived',
  })
  noShow(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string): Promise<RideView> {
    return this.transitions.apply(rideId, { type: 'no_show' }, user);
  }

  @Put(':ride_id/offer')
  @Roles('passenger')
  @RequiresRegistration()
  @ApiOperation({
    summary: 'Raise the offered fare of a requested ride (its passenger; only upwards)',
    description:
      'The drivers the matcher would tell about a new request now receive `ride_requested` again with the raised offer. ' +
      'A ride booked without an offer may get one here, at least MIN_OFFER_PERCENT % of its stored estimate.',
  })
  @ApiOkResponse({ type: RideResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Not higher than the current offer, below the minimum, or more than 2 decimals' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered passenger' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or not the caller’s' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The ride is no longer requested (or its time is up)' })
  raiseOffer(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() dto: RaiseOfferDto): Promise<RideView> {
    return this.transitions.apply(rideId, { type: 'raise_offer', offeredFareMinor: toMinor(dto.offered_fare)! }, user);
  }

  @Put(':ride_id/status')
  @Roles('driver')
  @RequiresRegistration()
  @ApiOperation({ summary: 'Assigned driver: one step forward (accepted → driver_arrived → started → completed)' })
  @ApiOkResponse({ type: RideResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Unknown status value; Wrong PIN (starting a ride with a start PIN)' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a driver account' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or not assigned to the caller' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Not the next status of the ride' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many wrong PINs (after 5 wrong tries on the ride)' })
  changeStatus(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() dto: UpdateRideStatusDto): Promise<RideView> {
    return this.transitions.apply(rideId, driverStep(dto.status, dto.pin), user);
  }
}
