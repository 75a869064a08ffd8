/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, loaded by node (the demo) and Jest alike */
'use strict';
/**
 * The Stripe fake's objects and their rules: PaymentIntents (confirm, decline, capture, cancel),
 * refunds, Express accounts and transfers, kept in `db` (one Map per kind).
 */
const { randomBytes } = require('node:crypto');
const { TEST_CARDS, CANCELABLE, id, now, StripeApiError, invalid, missing, amountOf, currencyOf, metadataOf, truthy, pub } = require('./wire');

function createStripeObjects(db) {
  let refuseTransfers = 0;

  function newPaymentMethod(testCard, customerId) {
    const card = TEST_CARDS[testCard];
    if (!card) throw invalid(`No such PaymentMethod: '${testCard}'`, 'payment_method', 'resource_missing');
    const pm = {
      id: id('payment_method'),
      object: 'payment_method',
      type: 'card',
      created: now(),
      customer: customerId ?? null,
      livemode: false,
      metadata: {},
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit', country: 'US' },
      _decline: card.decline,
    };
    db.payment_method.set(pm.id, pm);
    return pm;
  }

  const get = (kind, value, name) => {
    const found = db[kind].get(value);
    if (!found) throw missing(name ?? kind, value);
    return found;
  };
  function createPaymentIntent(p) {
    const currency = currencyOf(p.currency);
    const amount = amountOf(p.amount, 'amount', currency);
    if (p.capture_method && !['manual', 'automatic', 'automatic_async'].includes(p.capture_method)) throw invalid('Invalid capture_method', 'capture_method');
    const customer = p.customer === undefined ? null : get('customer', p.customer).id;
    let pm = null;
    if (p.payment_method !== undefined) {
      pm = TEST_CARDS[p.payment_method] ? newPaymentMethod(p.payment_method, customer) : get('payment_method', p.payment_method, 'PaymentMethod');
      if (customer && pm.customer !== customer)
        throw invalid(`The provided PaymentMethod ${pm.id} does not belong to the Customer ${customer}.`, 'payment_method');
    }
    if (truthy(p.off_session) && !truthy(p.confirm)) throw invalid('off_session can only be used with confirm=true', 'off_session');
    const intent = {
      id: id('payment_intent'),
      object: 'payment_intent',
      amount,
      currency,
      customer,
      payment_method: pm && pm.id,
      capture_method: p.capture_method ?? 'automatic_async',
      amount_capturable: 0,
      amount_received: 0,
      status: 'requires_confirmation',
      latest_charge: null,
      metadata: metadataOf(p.metadata),
      created: now(),
      livemode: false,
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
    db.payment_intent.set(intent.id, intent);
    if (!truthy(p.confirm)) return intent;
    if (!pm)
      throw invalid('You cannot confirm this PaymentIntent because it is missing a payment method.', 'payment_method', 'payment_intent_unexpected_state');
    const charge = {
      id: id('charge'),
      object: 'charge',
      amount,
      currency,
      payment_intent: intent.id,
      payment_method: pm.id,
      amount_captured: 0,
      amount_refunded: 0,
      refunded: false,
      captured: false,
      paid: false,
      status: 'pending',
      refunds: { object: 'list', data: [], has_more: false },
      metadata: intent.metadata,
      created: now(),
    };
    db.charge.set(charge.id, charge);
    intent.latest_charge = charge.id;
    if (pm._decline) {
      Object.assign(charge, { status: 'failed', failure_code: 'card_declined' });
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: pm._decline },
      });
      const message = pm._decline === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.';
      throw new StripeApiError(
        402,
        {
          type: 'card_error',
          code: 'card_declined',
          decline_code: pm._decline,
          message,
          charge: charge.id,
          payment_intent: pub(intent),
          payment_method: pub(pm),
        },
        true,
      );
    }
    charge.paid = true;
    charge.status = 'succeeded';
    if (intent.capture_method === 'manual') Object.assign(intent, { status: 'requires_capture', amount_capturable: amount });
    else {
      Object.assign(intent, { status: 'succeeded', amount_received: amount });
      Object.assign(charge, { captured: true, amount_captured: amount });
    }
    return intent;
  }

  function capturePaymentIntent(intent, p) {
    if (intent.status !== 'requires_capture')
      throw invalid(
        `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    const amount = p.amount_to_capture === undefined ? intent.amount_capturable : amountOf(p.amount_to_capture, 'amount_to_capture');
    if (amount > intent.amount_capturable)
      throw invalid(
        `The amount_to_capture (${amount}) is greater than the amount_capturable (${intent.amount_capturable}).`,
        'amount_to_capture',
        'amount_too_large',
      );
    Object.assign(intent, { status: 'succeeded', amount_received: amount, amount_capturable: 0 });
    Object.assign(db.charge.get(intent.latest_charge), { captured: true, amount_captured: amount });
    return intent;
  }

  function cancelPaymentIntent(intent) {
    if (!CANCELABLE.includes(intent.status))
      throw invalid(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    Object.assign(intent, { status: 'canceled', amount_capturable: 0, canceled_at: now(), cancellation_reason: 'requested_by_customer' });
    return intent;
  }

  function createRefund(p) {
    const intent = get('payment_intent', p.payment_intent, 'payment_intent');
    if (intent.status !== 'succeeded')
      throw invalid(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable');
    const charge = db.charge.get(intent.latest_charge);
    const left = charge.amount_captured - charge.amount_refunded;
    if (left === 0) throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = p.amount === undefined ? left : amountOf(p.amount, 'refund_amount');
    if (amount > left)
      throw invalid(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        'amount',
        'amount_too_large',
      );
    const refund = {
      id: id('refund'),
      object: 'refund',
      amount,
      currency: intent.currency,
      charge: charge.id,
      payment_intent: intent.id,
      status: 'succeeded',
      metadata: metadataOf(p.metadata),
      created: now(),
    };
    db.refund.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount_captured;
    charge.refunds.data.unshift(refund);
    return refund;
  }

  function createAccount(p) {
    if (p.type !== 'express') throw invalid('This fake supports type=express accounts only', 'type');
    if (typeof p.country !== 'string' || !/^[A-Z]{2}$/.test(p.country)) throw invalid(`Country '${p.country}' is unknown.`, 'country');
    const requested = p.capabilities?.transfers?.requested;
    if (requested !== undefined && requested !== 'true' && requested !== 'false') throw invalid('Invalid boolean', 'capabilities[transfers][requested]');
    const account = {
      id: id('account'),
      object: 'account',
      type: 'express',
      country: p.country,
      capabilities: { transfers: requested === 'true' ? 'inactive' : undefined },
      payouts_enabled: false,
      charges_enabled: false,
      details_submitted: false,
      metadata: metadataOf(p.metadata),
      created: now(),
    };
    db.account.set(account.id, account);
    return account;
  }

  function createTransfer(p) {
    const currency = currencyOf(p.currency);
    const amount = amountOf(p.amount, 'transfer_amount', currency);
    const account = get('account', p.destination, 'destination account');
    if (account.capabilities.transfers !== 'active')
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        'destination',
      );
    if (refuseTransfers > 0) {
      refuseTransfers -= 1;
      throw new StripeApiError(
        400,
        {
          type: 'invalid_request_error',
          code: 'balance_insufficient',
          message:
            'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card.',
        },
        true,
      );
    }
    const transfer = {
      id: id('transfer'),
      object: 'transfer',
      amount,
      currency,
      destination: account.id,
      metadata: metadataOf(p.metadata),
      reversed: false,
      created: now(),
    };
    db.transfer.set(transfer.id, transfer);
    return transfer;
  }

  return {
    get,
    newPaymentMethod,
    createPaymentIntent,
    capturePaymentIntent,
    cancelPaymentIntent,
    createRefund,
    createAccount,
    createTransfer,
    refuseNextTransfer: () => void (refuseTransfers += 1),
  };
}

module.exports = { createStripeObjects };
