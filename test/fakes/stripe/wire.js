/* global require, module, URLSearchParams */
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, loaded by node (the demo) and Jest alike */
'use strict';
/** The Stripe fake's wire: ids, errors in Stripe's shape, form decoding, amounts, signatures. */
const { createHmac, randomBytes } = require('node:crypto');

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

/** The same parameters in any order are the same request. */
function canonical(raw) {
  return [...new URLSearchParams(raw)]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('&');
}

/** An object as Stripe shows it: the fake's own bookkeeping (fields starting with `_`) left out. */
const pub = (object) => JSON.parse(JSON.stringify(object, (key, value) => (key.startsWith('_') ? undefined : value)));

module.exports = {
  TEST_CARDS,
  CANCELABLE,
  id,
  now,
  StripeApiError,
  invalid,
  missing,
  parseForm,
  amountOf,
  currencyOf,
  metadataOf,
  truthy,
  absoluteUrl,
  signatureHeader,
  canonical,
  pub,
};
