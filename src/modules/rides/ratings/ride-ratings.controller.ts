import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { RateRideDto } from './dto/rate-ride.dto';
import { RideRatingResponseDto } from './dto/ride-rating-response.dto';
import type { RideRatingView } from './ride-rating.view';

@ApiTags('rides')
@Controller('rides')
export class RideRatingsController {
  constructor(private readonly transitions: RideTransitionsService) {}

  @Post(':ride_id/rating')
  @RequiresRegistration()
  @ApiOperation({
    summary: 'Rate the other party of a completed ride (passenger → driver, driver → passenger), once each',
    description:
      "Within RATING_WINDOW_DAYS (default 7) of completion. The rated user's average (`rating`, 2 decimals) and count change at once; " +
      'the ride then carries the stars as `driver_rating` (given by the passenger) or `passenger_rating` (given by the driver), ' +
      'and the rated party receives a `ride_rated` event.',
  })
  @ApiCreatedResponse({ type: RideRatingResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'stars not an integer 1..5, comment over 500 characters, or an unknown field' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or the caller is neither its passenger nor its driver' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: "The ride is not completed, the caller's side rated it already, or the window has passed" })
  rate(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() dto: RateRideDto): Promise<RideRatingView> {
    return this.transitions.apply(rideId, { type: 'rate', stars: dto.stars, comment: dto.comment?.trim() || null }, user);
  }
}
