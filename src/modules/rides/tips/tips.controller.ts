import { Body, Controller, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration, Roles } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { toMinor } from '../../../common/money';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { TipResponseDto } from './dto/tip-response.dto';
import { TipRideDto } from './dto/tip-ride.dto';
import type { TipView } from './tip-view';

@ApiTags('rides')
@ApiBearerAuth()
@RequiresRegistration()
@Controller('rides')
export class TipsController {
  constructor(private readonly transitions: RideTransitionsService) {}

  @Post(':ride_id/tip')
  @Roles('passenger')
  @ApiOperation({
    summary: 'Tip the driver of a completed ride (its passenger, once, within 24 h of completion)',
    description: 'Paid from the passenger’s wallet to the driver’s in one ledger transaction, for cash and wallet rides alike; no commission.',
  })
  @ApiCreatedResponse({ type: TipResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'amount not positive or more than 2 decimals' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered passenger' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or not the caller’s' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Not completed, already tipped, more than 24 h after completion, or the wallet balance is short',
  })
  tip(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() dto: TipRideDto): Promise<TipView> {
    return this.transitions.apply(rideId, { type: 'tip', amountMinor: toMinor(dto.amount)! }, user);
  }
}
