/* global require, module, process, URL, URLSearchParams, fetch */
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, loaded by node (the demo) and Jest alike */
'use strict';
/**
 * A local stand-in for Stripe's API (v1), in plain CommonJS so that the Jest tests and the demo
 * (plain node) can both start it. It checks what Stripe checks and answers in Stripe's shapes:
 *
 * - `Authorization: Bearer <secret key>` (401 with Stripe's error JSON otherwise);
 * - POST bodies form-encoded with brackets (`metadata[ride_id]`, `capabilities[transfers][requested]`);
 * - `Idempotency-Key` on every POST (this fake refuses a POST without one, so a missing key fails a
 *   test): the same key and parameters replay the first response (`Idempotent-Replayed: true`);
 *   the same key with other parameters is 400 `idempotency_error`. Only requests that ran are saved
 *   (successes and card declines), as Stripe does;
 * - amounts are positive integers in minor units (at least 50 for usd), currencies lowercase;
 * - the PaymentIntent states (requires_payment_method after a decline, requires_capture,
 *   succeeded, canceled), capture ≤ the amount capturable, no cancel of a succeeded intent;
 * - Stripe's test cards: pm_card_visa, pm_card_mastercard succeed; pm_card_chargeDeclined,
 *   pm_card_visa_chargeDeclined, pm_card_chargeDeclinedInsufficientFunds answer 402 card_error;
 * - customers, SetupIntents, payment methods (list, attach, detach), refunds (≤ captured), Express
 *   accounts, account links, transfers (to an account whose payouts are enabled).
 *
 * Test switches: `script` (the next answers: 500, 503, 429, 'hang' = never answer, 'drop' = run the
 * request and then cut the connection, as a response lost on the way back), `outage` (every request),
 * `refuseNextTransfer()`. Every request is logged in `requests`. `sendWebhook` posts a signed event.
 */
const { createHmac, randomBytes } = require('node:crypto');
const { createServer } = require('node:http');

const TEST_CARDS = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_amex: { brand: 'amex', last4: '8431' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', decline: 'generic_decline' },
  pm_card_visa_chargeDeclined: { brand: 'visa', last4: '0002', decline: 'generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', decline: 'insufficient_funds' },
};
const PREFIX = {
  customer: 'cus',
  setup_intent: 'seti',
  payment_method: 'pm',
  payment_intent: 'pi',
  charge: 'ch',
  refund: 're',
  account: 'acct',
  transfer: 'tr',
  event: 'evt',
};
const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];

const id = (kind) => `${PREFIX[kind]}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

class StripeApiError extends Error {
  constructor(status, error, save = false) {
    super(error.message);
    this.status = status;
    this.error = error;
    /** Whether the request ran (a decline, a refused transfer): such answers are replayed for their key. */
    this.save = save;
  }
}
const invalid = (message, param, code) => new StripeApiError(400, { type: 'invalid_request_error', message, param, code });
const missing = (kind, value) =>
  new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${value}'`, param: 'id' });

/** Stripe's form encoding: `a[b][c]=v` → {a: {b: {c: 'v'}}}, `a[]=v` / `a[0]=v` → {a: ['v']}. */
function parseForm(raw) {
  const out = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = out;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[i + 1]);
      const slot = part === '' ? node.length : part;
      if (last) node[slot] = value;
      else node = node[slot] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

function amountOf(value, param = 'amount', currency = 'usd') {
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) <= 0) {
    throw invalid(`Invalid positive integer`, param, 'parameter_invalid_integer');
  }
  const amount = Number(value);
  if (param === 'amount' && currency === 'usd' && amount < 50) {
    throw invalid('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
  }
  return amount;
}

function currencyOf(value) {
  if (typeof value !== 'string' || !/^[a-z]{3}$/.test(value))
    throw invalid(`Invalid currency: ${value}. Stripe currencies are three-letter ISO codes in lowercase.`, 'currency');
  return value;
}

const metadataOf = (value) => (value && typeof value === 'object' && !Array.isArray(value) ? value : {});
const truthy = (value) => value === 'true';
const absoluteUrl = (value) => typeof value === 'string' && /^https?:\/\/[^/]/.test(value);

function signatureHeader(payload, secret, timestamp = now()) {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

async function startStripeFake(options = {}) {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  const db = {
    customer: new Map(),
    setup_intent: new Map(),
    payment_method: new Map(),
    payment_intent: new Map(),
    charge: new Map(),
    refund: new Map(),
    account: new Map(),
    transfer: new Map(),
  };
  const idempotency = new Map();
  const sockets = new Set();
  let refuseTransfers = 0;

  const fake = {
    url: '',
    secretKey,
    webhookSecret,
    requests: [],
    script: [],
    outage: undefined,
    objects: db,
    posts: () => fake.requests.filter((r) => r.method === 'POST'),
    refuseNextTransfer: () => void (refuseTransfers += 1),
    /** What the app's Stripe SDK does with the SetupIntent's client secret: confirms it with a test card. */
    confirmSetupIntent(setupIntentId, testCard = 'pm_card_visa') {
      const intent = db.setup_intent.get(setupIntentId);
      if (!intent) throw new Error(`no SetupIntent ${setupIntentId}`);
      const pm = newPaymentMethod(testCard, intent.customer);
      Object.assign(intent, { status: 'succeeded', payment_method: pm.id });
      return { setupIntent: { ...intent }, paymentMethod: { ...pm } };
    },
    /** A card attached without a SetupIntent (what a dashboard or an older flow would do). */
    attachTestCard: (customerId, testCard = 'pm_card_visa') => ({ ...newPaymentMethod(testCard, customerId) }),
    /** The driver finished Stripe's onboarding: payouts are enabled; returns the account for `account.updated`. */
    completeOnboarding(accountId, enabled = true) {
      const account = db.account.get(accountId);
      if (!account) throw new Error(`no account ${accountId}`);
      Object.assign(account, { payouts_enabled: enabled, charges_enabled: enabled, details_submitted: enabled });
      account.capabilities.transfers = enabled ? 'active' : 'inactive';
      return { ...account };
    },
    /** A refund made in Stripe's dashboard; returns the charge for `charge.refunded`. */
    refundInDashboard(paymentIntentId, amount) {
      const intent = db.payment_intent.get(paymentIntentId);
      createRefund({ payment_intent: paymentIntentId, amount: String(amount) });
      return { ...db.charge.get(intent.latest_charge) };
    },
    signatureHeader: (payload, secret = webhookSecret, timestamp) => signatureHeader(payload, secret, timestamp),
    event: (type, object, eventId = id('event')) => ({
      id: eventId,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object },
    }),
    /** Posts an event to `url` signed with the webhook secret (or `sign.secret`, `sign.timestamp`); answers its status and body. */
    async sendWebhook(url, event, sign = {}) {
      const payload = JSON.stringify(event);
      const header = sign.header ?? signatureHeader(payload, sign.secret ?? webhookSecret, sign.timestamp ?? now());
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': header,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
      });
      return { status: res.status, body: await res.text() };
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };

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
  const pub = (object) => JSON.parse(JSON.stringify(object, (key, value) => (key.startsWith('_') ? undefined : value)));

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

  /** Routes a request that passed the checks; returns the object to answer with 200. */
  function route(method, path, p, query) {
    let m;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('customer'), object: 'customer', metadata: metadataOf(p.metadata), email: p.email ?? null, created: now(), livemode: false };
      db.customer.set(customer.id, customer);
      return customer;
    }
    if (method === 'GET' && (m = /^\/v1\/customers\/([^/]+)$/.exec(path))) return get('customer', m[1]);
    if (method === 'GET' && (m = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(path))) {
      const customer = get('customer', m[1]);
      const type = query.get('type');
      const data = [...db.payment_method.values()].filter((pm) => pm.customer === customer.id && (!type || pm.type === type)).reverse();
      return { object: 'list', url: path, has_more: false, data };
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      if (p.customer !== undefined) get('customer', p.customer);
      if (p.usage !== undefined && !['on_session', 'off_session'].includes(p.usage)) throw invalid('Invalid usage', 'usage');
      const intent = {
        id: id('setup_intent'),
        object: 'setup_intent',
        customer: p.customer ?? null,
        usage: p.usage ?? 'off_session',
        status: 'requires_payment_method',
        payment_method: null,
        created: now(),
        livemode: false,
      };
      intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
      db.setup_intent.set(intent.id, intent);
      return intent;
    }
    if (method === 'POST' && (m = /^\/v1\/payment_methods\/([^/]+)\/(attach|detach)$/.exec(path))) {
      const pm = get('payment_method', m[1], 'PaymentMethod');
      if (m[2] === 'attach') {
        if (pm.customer)
          throw invalid('The payment method you provided has already been attached to a customer.', undefined, 'payment_method_unexpected_state');
        pm.customer = get('customer', p.customer).id;
      } else {
        if (!pm.customer)
          throw invalid(
            `The payment method you provided is not attached to a customer so detachment is impossible.`,
            undefined,
            'payment_method_unexpected_state',
          );
        pm.customer = null;
      }
      return pm;
    }
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(p);
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) return get('payment_intent', m[1], 'payment_intent');
    if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/capture$/.exec(path)))
      return capturePaymentIntent(get('payment_intent', m[1], 'payment_intent'), p);
    if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path)))
      return cancelPaymentIntent(get('payment_intent', m[1], 'payment_intent'));
    if (method === 'POST' && path === '/v1/refunds') return createRefund(p);
    if (method === 'POST' && path === '/v1/accounts') return createAccount(p);
    if (method === 'GET' && (m = /^\/v1\/accounts\/([^/]+)$/.exec(path))) return get('account', m[1], 'account');
    if (method === 'POST' && path === '/v1/account_links') {
      const account = get('account', p.account, 'account');
      if (p.type !== 'account_onboarding' && p.type !== 'account_update') throw invalid('Invalid type', 'type');
      if (!absoluteUrl(p.refresh_url)) throw invalid('Not a valid URL', 'refresh_url', 'url_invalid');
      if (!absoluteUrl(p.return_url)) throw invalid('Not a valid URL', 'return_url', 'url_invalid');
      return {
        object: 'account_link',
        created: now(),
        expires_at: now() + 300,
        url: `${fake.url}/express/onboarding/${account.id}/${randomBytes(8).toString('hex')}`,
      };
    }
    if (method === 'POST' && path === '/v1/transfers') return createTransfer(p);
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  function answer(res, status, body, headers = {}) {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(7).toString('hex')}`, ...headers }).end(JSON.stringify(body));
  }

  function handle(req, res, raw) {
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const key = req.headers['idempotency-key'];
    const entry = {
      method: req.method,
      path: url.pathname,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      body: {},
      raw,
      status: 0,
      replayed: false,
    };
    fake.requests.push(entry);
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (!auth || auth[1] !== secretKey) {
      entry.status = 401;
      const shown = auth ? `${auth[1].slice(0, 8)}${'*'.repeat(Math.max(0, auth[1].length - 12))}${auth[1].slice(-4)}` : '';
      return answer(
        res,
        401,
        {
          error: {
            type: 'invalid_request_error',
            message: auth
              ? `Invalid API Key provided: ${shown}`
              : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
          },
        },
        { 'www-authenticate': 'Bearer realm="Stripe"' },
      );
    }
    const scripted = fake.outage ?? fake.script.shift();
    if (scripted === 'hang') return;
    if (typeof scripted === 'number') {
      entry.status = scripted;
      const type = scripted === 429 ? 'invalid_request_error' : 'api_error';
      return answer(res, scripted, {
        error: {
          type,
          code: scripted === 429 ? 'rate_limit' : undefined,
          message: scripted === 429 ? 'Too many requests hit the API too quickly.' : 'An unknown error occurred',
        },
      });
    }
    if (req.method === 'POST') {
      const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim();
      if (raw !== '' && contentType !== 'application/x-www-form-urlencoded') {
        entry.status = 400;
        return answer(res, 400, {
          error: {
            type: 'invalid_request_error',
            message: `Invalid request: unsupported Content-Type ${contentType}. If error persists and you need assistance, please contact support@stripe.com.`,
          },
        });
      }
      entry.body = parseForm(raw);
      if (entry.idempotencyKey === undefined) {
        entry.status = 400;
        return answer(res, 400, {
          error: {
            type: 'invalid_request_error',
            message: 'This Stripe fake refuses a POST without an Idempotency-Key (the service promises one on every POST).',
          },
        });
      }
      const scope = `${entry.idempotencyKey}`;
      const saved = idempotency.get(scope);
      if (saved) {
        if (saved.path !== url.pathname || saved.raw !== canonical(raw)) {
          entry.status = 400;
          return answer(res, 400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${scope}' if you meant to execute a different request.`,
            },
          });
        }
        entry.status = saved.status;
        entry.replayed = true;
        if (scripted === 'drop') return req.socket.destroy();
        return answer(res, saved.status, saved.body, { 'idempotent-replayed': 'true', 'idempotency-key': scope });
      }
    }
    let status = 200;
    let body;
    let save = req.method === 'POST';
    try {
      body = pub(route(req.method, url.pathname, entry.body, url.searchParams));
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      status = err.status;
      body = { error: { ...err.error, request_log_url: `https://dashboard.stripe.com/test/logs/req_${randomBytes(7).toString('hex')}` } };
      save = save && err.save;
    }
    if (save) idempotency.set(entry.idempotencyKey, { path: url.pathname, raw: canonical(raw), status, body });
    entry.status = status;
    entry.response = body;
    if (scripted === 'drop') return req.socket.destroy();
    return answer(res, status, body, entry.idempotencyKey ? { 'idempotency-key': entry.idempotencyKey } : {});
  }

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => handle(req, res, raw));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${server.address().port}`;
  return fake;
}

/** The same parameters in any order are the same request. */
function canonical(raw) {
  return [...new URLSearchParams(raw)]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('&');
}

module.exports = { startStripeFake, TEST_CARDS, signatureHeader };
if (require.main === module) {
  startStripeFake({ port: Number(process.env.PORT ?? 0) }).then((fake) =>
    process.stdout.write(`${JSON.stringify({ url: fake.url, secretKey: fake.secretKey, webhookSecret: fake.webhookSecret })}\n`),
  );
}
