import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../../common/auth/auth.decorators';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { RAW_BODY, STRIPE_WEBHOOK_ROUTE } from '../payments.routes';
import { StripeWebhooksService } from './stripe-webhooks.service';

class WebhookReceivedDto {
  @ApiProperty({ example: true }) received!: boolean;
}

/** What Stripe posts (documented only: the signed bytes are verified, never validated as a DTO). */
class StripeEventDto {
  @ApiProperty({ example: 'evt_1Nf5Qz2eZvKYlo2C' }) id!: string;
  @ApiProperty({ example: 'event' }) object!: string;
  @ApiProperty({ example: 'account.updated', description: 'Handled: setup_intent.succeeded, account.updated, payment_intent.canceled, charge.refunded' })
  type!: string;
  @ApiProperty({ example: 1795790000 }) created!: number;
  @ApiProperty({ example: { object: { id: 'acct_1Nf4', object: 'account', payouts_enabled: true } }, description: 'The object the event is about' })
  data!: Record<string, unknown>;
}

@ApiTags('payments')
@Controller(STRIPE_WEBHOOK_ROUTE.controller)
export class StripeWebhooksController {
  constructor(private readonly webhooks: StripeWebhooksService) {}

  @Post(STRIPE_WEBHOOK_ROUTE.path)
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Stripe’s webhook deliveries (called by Stripe, not by apps)',
    description:
      'The raw body is checked against `Stripe-Signature` with STRIPE_WEBHOOK_SECRET (HMAC-SHA256, 300 s tolerance). Each ' +
      'event id takes effect once: a redelivery, and an unknown type, are answered 200 with no effect.',
  })
  @ApiHeader({ name: 'Stripe-Signature', required: true, description: '`t=<unix>,v1=<hex>`' })
  @ApiBody({ type: StripeEventDto, description: 'A Stripe event, as Stripe signed it' })
  @ApiOkResponse({ type: WebhookReceivedDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Missing or invalid signature (or no STRIPE_WEBHOOK_SECRET configured)' })
  async receive(@Req() request: FastifyRequest, @Headers('stripe-signature') signature: string | undefined): Promise<WebhookReceivedDto> {
    await this.webhooks.receive((request as FastifyRequest & { [RAW_BODY]?: Buffer })[RAW_BODY], signature);
    return { received: true };
  }
}
