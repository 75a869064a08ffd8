import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../../common/auth/auth.decorators';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { RAW_BODY, STRIPE_WEBHOOK_ROUTE } from '../payments.routes';
import { StripeWebhooksService } from './stripe-webhooks.service';

class WebhookReceivedDto {
  @ApiProperty({ example: true }) received!: boolean;
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
  @ApiOkResponse({ type: WebhookReceivedDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Missing or invalid signature (or no STRIPE_WEBHOOK_SECRET configured)' })
  async receive(@Req() request: FastifyRequest, @Headers('stripe-signature') signature: string | undefined): Promise<WebhookReceivedDto> {
    await this.webhooks.receive((request as FastifyRequest & { [RAW_BODY]?: Buffer })[RAW_BODY], signature);
    return { received: true };
  }
}
