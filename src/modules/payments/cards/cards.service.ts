import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PaymentError } from '../payments.errors';
import { StripeKeys } from '../payments.keys';
import { StripeAccess } from '../stripe/stripe-access';
import type { StripeCard } from '../stripe/stripe-gateway';
import { CardPaymentsRepository } from '../ride-payments/card-payments.repository';
import { PaymentCustomerRow, PaymentCustomersRepository } from './payment-customers.repository';

/** A saved card as the app lists it (CONTRACT §12). */
export interface CardView {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
}

export interface CardListView {
  items: CardView[];
}

export interface CardSetupView {
  client_secret: string;
  setup_intent_id: string;
}

/**
 * A passenger's saved cards. The list lives in Stripe and is read from there; only the customer id
 * and the chosen default are ours. The default is the chosen card while it is saved, else the newest.
 */
@Injectable()
export class CardsService {
  constructor(
    private readonly stripe: StripeAccess,
    private readonly customers: PaymentCustomersRepository,
    private readonly payments: CardPaymentsRepository,
  ) {}

  /** Creates the caller's Stripe customer once, then a SetupIntent the app confirms with Stripe's SDK. */
  async setup(userId: number): Promise<CardSetupView> {
    const gateway = this.stripe.forCards();
    const customer = await this.ensureCustomer(userId);
    const intent = await gateway.createSetupIntent(customer.stripeCustomerId, StripeKeys.cardSetup(userId, randomUUID()));
    return { client_secret: intent.clientSecret, setup_intent_id: intent.id };
  }

  async list(userId: number): Promise<CardListView> {
    const { customer, cards } = await this.cardsOf(userId);
    const defaultId = customer ? chooseDefault(cards, customer.defaultCardId)?.id : undefined;
    return {
      items: cards.map((c) => ({ id: c.id, brand: c.brand, last4: c.last4, exp_month: c.expMonth, exp_year: c.expYear, is_default: c.id === defaultId })),
    };
  }

  async setDefault(userId: number, cardId: string): Promise<CardListView> {
    const { customer, cards } = await this.cardsOf(userId);
    if (!customer || !cards.some((c) => c.id === cardId)) throw new PaymentError('CARD_NOT_FOUND');
    await this.customers.setDefault(userId, cardId);
    return this.list(userId);
  }

  /** Detaches a card of the caller's; refused while a hold of a ride is live on it. */
  async detach(userId: number, cardId: string): Promise<void> {
    const gateway = this.stripe.forCards();
    const { customer, cards } = await this.cardsOf(userId);
    if (!customer || !cards.some((c) => c.id === cardId)) throw new PaymentError('CARD_NOT_FOUND');
    await this.payments.runInTransaction(async (tx) => {
      // The customer's row lock orders this after any hold being placed on the card right now.
      await this.customers.lock(userId, tx);
      if (await this.payments.isHeldOnCard(cardId, tx)) throw new PaymentError('CARD_IN_USE');
      await gateway.detachCard(cardId, StripeKeys.cardDetach(cardId));
      if (customer.defaultCardId === cardId) await this.customers.setDefault(userId, null, tx);
    });
  }

  /** The card a ride is held on: the default one; 400 "Add a card to pay by card" without any. */
  async defaultCard(userId: number): Promise<{ customer: PaymentCustomerRow; card: StripeCard }> {
    const { customer, cards } = await this.cardsOf(userId);
    const card = customer ? chooseDefault(cards, customer.defaultCardId) : undefined;
    if (!customer || !card) throw new PaymentError('CARD_REQUIRED');
    return { customer, card };
  }

  private async ensureCustomer(userId: number): Promise<PaymentCustomerRow> {
    const existing = await this.customers.find(userId);
    if (existing) return existing;
    // Concurrent first setups send the same key: Stripe answers both with one customer.
    const id = await this.stripe.forCards().createCustomer(userId, StripeKeys.customer(userId));
    return this.customers.insert(userId, id);
  }

  private async cardsOf(userId: number): Promise<{ customer: PaymentCustomerRow | undefined; cards: StripeCard[] }> {
    const gateway = this.stripe.forCards();
    const customer = await this.customers.find(userId);
    return { customer, cards: customer ? await gateway.listCards(customer.stripeCustomerId) : [] };
  }
}

function chooseDefault(cards: StripeCard[], chosen: string | null): StripeCard | undefined {
  return cards.find((c) => c.id === chosen) ?? cards[0];
}
