import type { OperatorRole } from '../../src/common/auth/operator-permissions';
import { TokenService } from '../../src/modules/auth/services/token.service';
import { OperatorAccountsService } from '../../src/modules/users/operator-accounts.service';
import type { TestApp } from './test-app';

export interface TestUser {
  id: number;
  phone: string;
  email: string;
  role: 'passenger' | 'driver';
  accessToken: string;
  refreshToken: string;
}

let sequence = 0;

function uniquePhone(): string {
  sequence += 1;
  return `+1555${String(process.pid % 1000).padStart(3, '0')}${String(sequence).padStart(4, '0')}`;
}

export interface CreateUserOptions {
  role?: 'passenger' | 'driver';
  registered?: boolean;
  walletBalanceMinor?: number;
  driverStatus?: 'pending' | 'approved' | 'rejected' | 'suspended';
  vehicleCategoryId?: number | null;
  firstName?: string;
}

/**
 * A user written straight to the database with a real token pair: for tests about rides and
 * events that should not depend on the OTP flow (which has its own tests).
 */
export async function createUser(t: TestApp, options: CreateUserOptions = {}): Promise<TestUser> {
  const role = options.role ?? 'passenger';
  const registered = options.registered ?? true;
  const phone = uniquePhone();
  const email = `user${phone.slice(1)}@example.test`;
  const [row] = await t.db.query(
    `INSERT INTO users (phone, email, first_name, last_name, role, is_verified, is_phone_verified,
                        is_registered, registered_at)
     VALUES ($1, $2, $3, $4, $5, true, true, $6, CASE WHEN $6 THEN now() END) RETURNING id`,
    [phone, email, options.firstName ?? (role === 'driver' ? 'Dana' : 'Paula'), 'Test', role, registered],
  );
  const id = row.id as number;
  if (registered) {
    await t.db.query(`INSERT INTO wallets (user_id, currency, balance_minor) VALUES ($1, $2, 0)`, [id, t.config.currency]);
    if (options.walletBalanceMinor) await fundWallet(t, id, options.walletBalanceMinor);
    if (role === 'driver') {
      await t.db.query(
        `INSERT INTO drivers (user_id, status, vehicle_category_id, vehicle_make, vehicle_model, vehicle_plate, vehicle_color, vehicle_year, license_number)
         VALUES ($1, $2, $3, 'Toyota', 'Corolla', $4, 'White', 2021, $5)`,
        [id, options.driverStatus ?? 'approved', options.vehicleCategoryId === undefined ? 1 : options.vehicleCategoryId, `T${id}`, `L-${id}`],
      );
    }
  }
  const issued = t.get(TokenService).issue({ id, role });
  await t.db.query(`UPDATE users SET refresh_token_hash = $2 WHERE id = $1`, [id, issued.refreshTokenHash]);
  return { id, phone, email, role, accessToken: issued.pair.access_token, refreshToken: issued.pair.refresh_token };
}

/** Credits a user's wallet through a balanced ledger transfer from the external funding account. */
export async function fundWallet(t: TestApp, userId: number, amountMinor: number): Promise<void> {
  await t.db.transaction(async (m) => {
    await m.query(`INSERT INTO wallets (kind, currency) VALUES ('external', $1) ON CONFLICT (kind) WHERE kind IN ('platform', 'external') DO NOTHING`, [
      t.config.currency,
    ]);
    const [external] = await m.query(`SELECT id FROM wallets WHERE kind = 'external'`);
    const [wallet] = await m.query(`SELECT id FROM wallets WHERE user_id = $1`, [userId]);
    const transfer = (await m.query(`SELECT gen_random_uuid() AS id`))[0].id;
    await m.query(
      `INSERT INTO wallet_ledger_entries (wallet_id, transfer_id, amount_minor, kind, reason)
       VALUES ($1, $3, $4, 'funding', 'test funding'), ($2, $3, -$4::bigint, 'funding', 'test funding')`,
      [wallet.id, external.id, transfer, amountMinor],
    );
    await m.query(`UPDATE wallets SET balance_minor = balance_minor + $2 WHERE id = $1`, [wallet.id, amountMinor]);
    await m.query(`UPDATE wallets SET balance_minor = balance_minor - $2 WHERE id = $1`, [external.id, amountMinor]);
  });
}

export interface TestOperator {
  id: number;
  email: string;
  operatorRole: OperatorRole;
  accessToken: string;
  refreshToken: string;
}

/** An operator made through the CLI's service path (audited, actor null) with a real token pair. */
export async function createOperator(t: TestApp, operatorRole: OperatorRole = 'admin'): Promise<TestOperator> {
  sequence += 1;
  const email = `operator${process.pid}x${sequence}@example.test`;
  const operator = await t.get(OperatorAccountsService).add(email, operatorRole, { actorId: null, reason: 'test operator' });
  const issued = t.get(TokenService).issue({ id: operator.id, role: 'operator' });
  await t.db.query(`UPDATE users SET refresh_token_hash = $2 WHERE id = $1`, [operator.id, issued.refreshTokenHash]);
  return { id: operator.id, email, operatorRole, accessToken: issued.pair.access_token, refreshToken: issued.pair.refresh_token };
}
