'use strict';
/**
 * The card money of a simulated city (CONTRACT §12), shared by the demo and the soak: the local
 * Stripe fake the tests use, settings under which every cancel of an accepted ride is late (it pays
 * the fee) and drivers may report a no-show after a short wait, and the ledger check at the end.
 */
const { spawnSync } = require('node:child_process');
const { startStripeFake } = require('../../test/fakes/stripe-fake');
const { CLI } = require('./service');

/** Starts the fake and adds its settings to `env`; `simOptions` go to simulateFromArgs. */
async function startCardMoney(env) {
  const stripe = await startStripeFake();
  Object.assign(env, {
    CANCELLATION_FREE_SECONDS: '0',
    NO_SHOW_WAIT_SECONDS: '2',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    PUBLIC_BASE_URL: 'http://127.0.0.1',
  });
  return {
    simOptions: {
      confirmCard: (setupIntentId) => stripe.confirmSetupIntent(setupIntentId, 'pm_card_visa'),
      noShowWaitSeconds: Number(env.NO_SHOW_WAIT_SECONDS),
    },
    /** Every movement, card money included, is ledger entries that sum to zero: a note, or a violation. */
    checkLedger(result) {
      const ledger = spawnSync(process.execPath, [CLI, 'ledger:check'], { env: { ...env, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
      const line = (ledger.stdout || ledger.stderr || '').trim().split('\n').slice(-1)[0];
      if (ledger.status === 0) result.notes.push(line);
      else result.violations.push({ kind: 'ledger', message: `ledger:check: ${line}` });
    },
    close: () => stripe.close(),
  };
}

module.exports = { startCardMoney };
