// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runSimulation } = require('../../sim/lib/run');
import { executeCommand } from '../../src/cli/commands';
import { PaymentsWorld, startPaymentsApp } from '../payments/payments-helpers';

/** The simulator with a Stripe fake beside the service (as the demo runs it): some rides paid by card, no violation, the ledger balanced. */
describe('simulator: card rides against the Stripe fake', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsApp({
      NODE_ENV: 'development',
      OTP_DEV_FIXED_CODE: '123456',
      LOG_LEVEL: 'silent',
      CANCELLATION_FREE_SECONDS: '0',
      NO_SHOW_WAIT_SECONDS: '1',
    });
  });
  afterAll(() => w?.close());

  it('books card rides, completes and cancels them (every cancel of an accepted ride late, every pickup a no-show: fees) without a contract violation; the wallets and the ledger balance', async () => {
    const result = await runSimulation({
      bases: [w.t.baseUrl],
      passengers: 5,
      drivers: 3,
      minutes: 0.15,
      pace: 0.25,
      heartbeatMs: 1000,
      seed: 11,
      progress: false,
      ttlMinutes: 10,
      confirmCard: (setupIntentId: string) => w.fake.confirmSetupIntent(setupIntentId, 'pm_card_visa'),
      noShowWaitSeconds: 1,
      // Every passenger who is met at the pickup fails to come: each such ride is a no-show with its fee.
      noShowChance: 1,
      cardChance: 1,
      // Every booking by card: a no-show of a cash ride has no fee, and which rides reach the pickup depends on the machine's load.
      cardRideChance: 1,
    });
    expect(result.violations).toEqual([]);
    expect(result.counters.cardRidesBooked).toBeGreaterThan(0);
    expect(result.counters.noShows).toBeGreaterThan(0);
    expect(result.counters.fees).toBeGreaterThan(0);
    expect(await executeCommand(w.t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  }, 120_000);
});
