import type { LightMyRequestResponse } from 'fastify';
import { startStripeFake, StripeFake } from '../fakes/stripe-fake';
import type { TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

export const WEBHOOK_PATH = '/api/v1/payments/stripe/webhook';

export interface PaymentsWorld {
  t: TestApp;
  fake: StripeFake;
  webhookUrl: string;
  close(): Promise<void>;
}

/** The app pointed at a fresh Stripe fake (its key, its webhook secret). */
export async function startPaymentsApp(env: Record<string, string | undefined> = {}, databaseUrl?: string): Promise<PaymentsWorld> {
  const fake = await startStripeFake();
  const t = await startTestApp({
    databaseUrl,
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
      PUBLIC_BASE_URL: 'https://rides.example',
      ...env,
    },
  });
  return {
    t,
    fake,
    webhookUrl: `${t.baseUrl}${WEBHOOK_PATH}`,
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

export function api(
  t: TestApp,
  user: TestUser | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.request({ method, url: `/api/v1${url}`, token: user?.accessToken, payload, headers });
}

/** What the app does with Stripe's SDK: a SetupIntent from the service, confirmed with a test card. Answers the card's id. */
export async function saveCard(w: PaymentsWorld, passenger: TestUser, testCard = 'pm_card_visa'): Promise<string> {
  const res = await api(w.t, passenger, 'POST', '/payments/cards/setup');
  if (res.statusCode !== 201) throw new Error(`setup failed: ${res.statusCode} ${res.body}`);
  return w.fake.confirmSetupIntent(res.json().setup_intent_id, testCard).paymentMethod.id;
}

/** The ledger balances (every wallet equals its entries, every transfer sums to zero). */
export async function ledgerBalanced(t: TestApp): Promise<{ wallets: unknown[]; transfers: unknown[] }> {
  const wallets = await t.db.query(
    `SELECT w.id FROM wallets w LEFT JOIN (SELECT wallet_id, sum(amount_minor) s FROM wallet_ledger_entries GROUP BY wallet_id) e ON e.wallet_id = w.id
      WHERE w.balance_minor <> coalesce(e.s, 0)`,
  );
  const transfers = await t.db.query(`SELECT transfer_id FROM wallet_ledger_entries GROUP BY transfer_id HAVING sum(amount_minor) <> 0`);
  return { wallets, transfers };
}

export async function balanceOf(t: TestApp, userId: number): Promise<number> {
  const [row] = await t.db.query(`SELECT balance_minor FROM wallets WHERE user_id = $1`, [userId]);
  return Number(row.balance_minor);
}
