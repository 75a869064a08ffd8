import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { OperatorAction } from '../../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { RefundResponseDto } from '../../payments/dto/refund-response.dto';
import { RefundRideDto } from './dto/refund-ride.dto';
import { RideRefundsService } from './ride-refunds.service';

@Controller('admin/rides')
export class AdminRideRefundsController {
  constructor(private readonly refunds: RideRefundsService) {}

  @Post(':ride_id/refunds')
  @OperatorAction('refunds.create')
  @ApiOperation({
    summary: 'Refund a ride (finance, admin)',
    description:
      'Card rides through Stripe (against the fare first, then the tip), wallet rides back to the wallet; cash rides are refused. ' +
      'Borne by the platform: the driver’s earnings stand. The ride’s refunded_amount follows, and the audit trail records it.',
  })
  @ApiCreatedResponse({ type: RefundResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Ride not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'A cash ride, nothing paid, or more than the passenger paid' })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: 'Payment provider unavailable. Please try again (nothing refunded)' })
  refund(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() body: RefundRideDto): Promise<RefundResponseDto> {
    return this.refunds.refund(user.id, rideId, body.amount, body.reason);
  }
}
