import { Body, Controller, Get, Headers, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentUser, RequiresRegistration, Roles } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { CommonError } from '../../../common/errors/common.errors';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { toMinor } from '../../../common/money';
import { OnboardingLinkResponseDto, PayoutPageResponseDto, PayoutResponseDto } from '../dto/payout-response.dto';
import { RequestPayoutDto } from '../dto/request-payout.dto';
import { PayoutPageView, PayoutsService } from './payouts.service';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
const UNAVAILABLE = 'Payouts are not available (the service has no STRIPE_SECRET_KEY)';
const PROVIDER_DOWN = 'Payment provider unavailable. Please try again (Retry-After says when)';

@ApiTags('driver')
@ApiBearerAuth()
@Roles('driver')
@RequiresRegistration()
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered driver account' })
@Controller('driver/payouts')
export class PayoutsController {
  constructor(private readonly payouts: PayoutsService) {}

  @Post('account')
  @ApiOperation({
    summary: 'Link a payout account: Stripe onboarding link',
    description:
      'Creates the driver’s Stripe connected (Express) account on first use and answers a fresh onboarding link (it ' +
      'expires within minutes: ask again rather than storing it). Payouts become possible once Stripe reports the account ' +
      'ready (`payouts_enabled` on the driver profile).',
  })
  @ApiCreatedResponse({ type: OnboardingLinkResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: UNAVAILABLE })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: PROVIDER_DOWN })
  account(@CurrentUser() user: AuthenticatedUser): Promise<{ url: string }> {
    return this.payouts.onboardingLink(user.id);
  }

  @Post()
  @ApiOperation({
    summary: 'Pay out from the wallet to the linked account',
    description:
      'A Stripe transfer, and the wallet debited in the same ledger transaction. Send an Idempotency-Key to make retries ' +
      'safe: the same key and amount answer the payout made earlier with 200 (a new payout is 201); the same key with another amount is 409.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1-200 visible ASCII characters' })
  @ApiCreatedResponse({ type: PayoutResponseDto })
  @ApiOkResponse({ type: PayoutResponseDto, description: 'Idempotent replay: the payout made earlier with this key' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: `Below PAYOUT_MINIMUM, an invalid amount, or ${UNAVAILABLE}` })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description:
      'Account not ready, more than the wallet balance, "Payout refused by the payment provider" (nothing debited), or the key used for another amount',
  })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: PROVIDER_DOWN })
  async payOut(
    @CurrentUser() user: AuthenticatedUser,
    @Body() dto: RequestPayoutDto,
    @Headers('idempotency-key') key: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw CommonError.validation('Idempotency-Key', 'Idempotency-Key must be 1 to 200 visible ASCII characters');
    }
    const { payout, created } = await this.payouts.payOut(user.id, toMinor(dto.amount)!, key);
    await reply.status(created ? 201 : 200).send(payout);
  }

  @Get()
  @ApiOperation({ summary: 'The driver’s payouts, newest first' })
  @ApiOkResponse({ type: PayoutPageResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'page or limit out of range' })
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: PageQueryDto): Promise<PayoutPageView> {
    return this.payouts.list(user.id, query.page ?? 1, query.limit ?? 20);
  }
}
