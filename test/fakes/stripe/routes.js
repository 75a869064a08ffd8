/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, loaded by node (the demo) and Jest alike */
'use strict';
/** The Stripe fake's URLs: which request does what, over the objects of ./objects.js. */
const { randomBytes } = require('node:crypto');
const { id, now, StripeApiError, invalid, metadataOf, absoluteUrl } = require('./wire');

/** `baseUrl()`: the fake's own address, for the onboarding links it hands out. */
function routeFor(db, objects, baseUrl) {
  const { get, createPaymentIntent, capturePaymentIntent, cancelPaymentIntent, createRefund, createAccount, createTransfer } = objects;

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
        url: `${baseUrl()}/express/onboarding/${account.id}/${randomBytes(8).toString('hex')}`,
      };
    }
    if (method === 'POST' && path === '/v1/transfers') return createTransfer(p);
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  return route;
}

module.exports = { routeFor };
