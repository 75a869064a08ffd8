import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WalletsModule } from '../wallets/wallets.module';
import { CardsController } from './cards/cards.controller';
import { CardsService } from './cards/cards.service';
import { PaymentCustomersRepository } from './cards/payment-customers.repository';
import { CardPaymentEntity } from './entities/card-payment.entity';
import { CardRefundEntity } from './entities/card-refund.entity';
import { PaymentCustomerEntity } from './entities/payment-customer.entity';
import { PaymentRefundEntity } from './entities/payment-refund.entity';
import { PayoutAccountEntity } from './entities/payout-account.entity';
import { PayoutEntity } from './entities/payout.entity';
import { StripeWebhookEventEntity } from './entities/stripe-webhook-event.entity';
import { PaymentsService } from './payments.service';
import { PayoutsController } from './payouts/payouts.controller';
import { PayoutsRepository } from './payouts/payouts.repository';
import { PayoutsService } from './payouts/payouts.service';
import { CardPaymentsRepository } from './ride-payments/card-payments.repository';
import { PaymentRefundsRepository } from './ride-payments/payment-refunds.repository';
import { RefundsService } from './ride-payments/refunds.service';
import { RideCardPaymentsService } from './ride-payments/ride-card-payments.service';
import { StripeAccess } from './stripe/stripe-access';
import { StripeWebhookEventsRepository } from './webhooks/stripe-webhook-events.repository';
import { StripeWebhooksController } from './webhooks/stripe-webhooks.controller';
import { StripeWebhooksService } from './webhooks/stripe-webhooks.service';

/** Cards, card rides' money, refunds, payouts and Stripe's webhooks (CONTRACT §12). */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      PaymentCustomerEntity,
      CardPaymentEntity,
      PaymentRefundEntity,
      CardRefundEntity,
      PayoutAccountEntity,
      PayoutEntity,
      StripeWebhookEventEntity,
    ]),
    WalletsModule,
  ],
  controllers: [CardsController, PayoutsController, StripeWebhooksController],
  providers: [
    StripeAccess,
    PaymentCustomersRepository,
    CardPaymentsRepository,
    PaymentRefundsRepository,
    PayoutsRepository,
    StripeWebhookEventsRepository,
    CardsService,
    RideCardPaymentsService,
    RefundsService,
    PayoutsService,
    StripeWebhooksService,
    PaymentsService,
  ],
  exports: [PaymentsService],
})
export class PaymentsModule {}
