import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { PaymentError } from '../payments.errors';
import { StripeGateway } from './stripe-gateway';

/** The Stripe gateway when STRIPE_SECRET_KEY is set; without it every card and payout operation is a 400. */
@Injectable()
export class StripeAccess {
  readonly gateway: StripeGateway | null;

  constructor(config: AppConfig) {
    this.gateway = config.stripeSecretKey
      ? new StripeGateway({ secretKey: config.stripeSecretKey, apiBase: config.stripeApiBase, webhookSecret: config.stripeWebhookSecret })
      : null;
  }

  get available(): boolean {
    return this.gateway !== null;
  }

  /** For cards and card rides: 400 "Card payments are not available" without a key. */
  forCards(): StripeGateway {
    if (!this.gateway) throw new PaymentError('CARD_PAYMENTS_UNAVAILABLE');
    return this.gateway;
  }

  forPayouts(): StripeGateway {
    if (!this.gateway) throw new PaymentError('PAYOUTS_UNAVAILABLE');
    return this.gateway;
  }
}
