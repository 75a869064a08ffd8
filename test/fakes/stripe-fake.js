/* global require, module, process, URL, fetch */
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
 *
 * This file is the server (keys, scripts, idempotency); `stripe/routes.js` maps the URLs,
 * `stripe/objects.js` holds the objects and their rules, `stripe/wire.js` the encodings and errors.
 */
const { randomBytes } = require('node:crypto');
const { createServer } = require('node:http');
const { TEST_CARDS, id, now, StripeApiError, parseForm, signatureHeader, canonical, pub } = require('./stripe/wire');
const { createStripeObjects } = require('./stripe/objects');
const { routeFor } = require('./stripe/routes');

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
  const objects = createStripeObjects(db);
  const { newPaymentMethod, createRefund } = objects;
  const route = routeFor(db, objects, () => fake.url);

  const fake = {
    url: '',
    secretKey,
    webhookSecret,
    requests: [],
    script: [],
    outage: undefined,
    objects: db,
    posts: () => fake.requests.filter((r) => r.method === 'POST'),
    refuseNextTransfer: objects.refuseNextTransfer,
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

module.exports = { startStripeFake, TEST_CARDS, signatureHeader };
if (require.main === module) {
  startStripeFake({ port: Number(process.env.PORT ?? 0) }).then((fake) =>
    process.stdout.write(`${JSON.stringify({ url: fake.url, secretKey: fake.secretKey, webhookSecret: fake.webhookSecret })}\n`),
  );
}
