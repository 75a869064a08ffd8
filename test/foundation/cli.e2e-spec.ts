import { CliUsageError } from '../../src/cli/cli-args';
import { COMMANDS, executeCommand, helpText } from '../../src/cli/commands';
import { DomainError } from '../../src/common/errors/domain.error';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('operator CLI commands (against the real application and database)', () => {
  let t: TestApp;
  const run = (...argv: string[]): Promise<string> => executeCommand(t.app, argv);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('help lists every command', () => {
    const help = helpText();
    for (const name of [
      'driver:approve',
      'driver:reject',
      'driver:suspend',
      'driver:reinstate',
      'user:block',
      'user:unblock',
      'wallet:credit',
      'promo:create',
      'ledger:check',
      'categories:reload',
      'operator:add',
      'help',
    ]) {
      expect(help).toContain(name);
    }
    expect(Object.keys(COMMANDS)).toHaveLength(11);
  });

  it('an unknown command, a missing or extra argument, or a bad user id is a usage error', async () => {
    await expect(run('driver:fire', '1')).rejects.toThrow(new CliUsageError('Unknown command "driver:fire"'));
    await expect(run('driver:approve')).rejects.toThrow(CliUsageError);
    await expect(run('driver:approve', '1', '2')).rejects.toThrow(CliUsageError);
    for (const id of ['abc', '0', '1.5', '99999999999999999999']) {
      await expect(run('user:block', id)).rejects.toThrow(/userId must be a positive whole number/);
    }
    await expect(run('user:block', '-3')).rejects.toThrow(/^Unknown option '-3'/);
    await expect(run('user:block', '1', '--force')).rejects.toThrow(CliUsageError);
  });

  it('driver:approve, driver:suspend and driver:reject set the driver record status', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    const status = async (): Promise<string> => (await t.db.query('SELECT status FROM drivers WHERE user_id = $1', [driver.id]))[0].status;

    expect(await run('driver:approve', String(driver.id))).toBe(`Driver ${driver.id} is now approved`);
    expect(await status()).toBe('approved');
    expect(await run('driver:suspend', String(driver.id))).toMatch(new RegExp(`^Driver ${driver.id} is now suspended`));
    expect(await status()).toBe('suspended');
    expect(await run('driver:reject', String(driver.id))).toMatch(/is now rejected/);
    expect(await status()).toBe('rejected');
  });

  it('driver commands on a user without a driver record are refused', async () => {
    const passenger = await createUser(t);
    await expect(run('driver:approve', String(passenger.id))).rejects.toThrow(DomainError);
    await expect(run('driver:approve', '987654321')).rejects.toThrow(DomainError);
  });

  it('user:block stops the user at once; user:unblock restores access', async () => {
    const user = await createUser(t);
    const me = () => t.request({ method: 'GET', url: '/api/v1/auth/me', token: user.accessToken });
    expect((await me()).statusCode).toBe(200);

    expect(await run('user:block', String(user.id))).toBe(`User ${user.id} is now blocked`);
    expect((await t.db.query('SELECT is_blocked FROM users WHERE id = $1', [user.id]))[0].is_blocked).toBe(true);
    expect((await me()).statusCode).toBeGreaterThanOrEqual(401);

    expect(await run('user:unblock', String(user.id))).toBe(`User ${user.id} is now unblocked`);
    expect((await me()).statusCode).toBe(200);
    await expect(run('user:block', '987654321')).rejects.toThrow('User not found');
  });

  it('wallet:credit credits the wallet through a balanced ledger transfer', async () => {
    const user = await createUser(t, { walletBalanceMinor: 1000 });
    const output = await run('wallet:credit', String(user.id), '25.50', '--reason', 'Refund for ride ABC123');
    expect(output).toMatch(new RegExp(`^Credited 25\\.50 USD to user ${user.id} \\(wallet \\d+, balance 35\\.50 USD\\): Refund for ride ABC123$`));
    const [wallet] = await t.db.query('SELECT balance_minor FROM wallets WHERE user_id = $1', [user.id]);
    expect(wallet.balance_minor).toBe(3550);
    const entries = await t.db.query(
      `SELECT e.amount_minor, e.reason FROM wallet_ledger_entries e
        WHERE e.transfer_id = (SELECT transfer_id FROM wallet_ledger_entries WHERE reason = $1 LIMIT 1) ORDER BY e.amount_minor`,
      ['Refund for ride ABC123'],
    );
    expect(entries).toEqual([
      { amount_minor: -2550, reason: 'Refund for ride ABC123' },
      { amount_minor: 2550, reason: 'Refund for ride ABC123' },
    ]);
  });

  it('wallet:credit refuses bad amounts, a missing reason and unknown users, and writes nothing', async () => {
    const user = await createUser(t);
    for (const amount of ['0', '0.00', '-5', '1.234', 'ten', '1e3', '']) {
      await expect(run('wallet:credit', String(user.id), amount, '--reason', 'x')).rejects.toThrow(CliUsageError);
    }
    await expect(run('wallet:credit', String(user.id), '5')).rejects.toThrow(/--reason is required/);
    await expect(run('wallet:credit', String(user.id), '5', '--reason', '   ')).rejects.toThrow(/--reason is required/);
    await expect(run('wallet:credit', String(user.id), '5', '--reason')).rejects.toThrow(CliUsageError);
    await expect(run('wallet:credit', '987654321', '5', '--reason', 'x')).rejects.toThrow(DomainError);
    const [wallet] = await t.db.query('SELECT balance_minor FROM wallets WHERE user_id = $1', [user.id]);
    expect(wallet.balance_minor).toBe(0);
  });

  it('promo:create creates percentage and fixed codes with their limits', async () => {
    const percent = await run(
      'promo:create',
      'cli-ten',
      '--percent',
      '10',
      '--max',
      '5.00',
      '--from',
      '2026-01-01T00:00:00Z',
      '--until',
      '2027-01-01T00:00:00Z',
      '--limit',
      '100',
    );
    expect(percent).toMatch(
      /^Created promo code CLI-TEN \(id \d+\): 10% off \(at most 5\.00 USD\), valid from 2026-01-01T00:00:00\.000Z until 2027-01-01T00:00:00\.000Z, at most 100 uses$/,
    );
    const fixed = await run('promo:create', 'CLI-FLAT', '--fixed', '3.5', '--description', 'Three fifty off', '--reason', 'Spring campaign');
    expect(fixed).toMatch(/^Created promo code CLI-FLAT \(id \d+\): 3\.50 USD off, valid with no time limit, unlimited uses$/);

    const rows = await t.db.query(
      `SELECT code, discount_type, discount_value, max_discount_minor, usage_limit, description
         FROM promo_codes WHERE code IN ('CLI-TEN', 'CLI-FLAT') ORDER BY code`,
    );
    expect(rows).toEqual([
      { code: 'CLI-FLAT', discount_type: 'fixed', discount_value: 350, max_discount_minor: null, usage_limit: null, description: 'Three fifty off' },
      { code: 'CLI-TEN', discount_type: 'percentage', discount_value: 10, max_discount_minor: 500, usage_limit: 100, description: '' },
    ]);
    await expect(run('promo:create', 'CLI-TEN', '--percent', '5')).rejects.toThrow('Promo code CLI-TEN already exists');
    // Audited as the CLI's (no operator), with --reason or the CLI's own.
    const audit = await t.db.query(
      `SELECT actor_id, action, target_type, target_id, reason FROM audit_log WHERE target_id IN ('CLI-TEN', 'CLI-FLAT') ORDER BY target_id`,
    );
    expect(audit).toEqual([
      { actor_id: null, action: 'promo_codes.create', target_type: 'promo_code', target_id: 'CLI-FLAT', reason: 'Spring campaign' },
      { actor_id: null, action: 'promo_codes.create', target_type: 'promo_code', target_id: 'CLI-TEN', reason: 'Created with the operator CLI' },
    ]);
  });

  it('promo:create refuses bad input before writing anything', async () => {
    const bad: string[][] = [
      ['BAD1'],
      ['BAD1', '--percent', '10', '--fixed', '5'],
      ['BAD1', '--percent', '0'],
      ['BAD1', '--percent', '101'],
      ['BAD1', '--percent', '12.5'],
      ['BAD1', '--fixed', '0'],
      ['BAD1', '--percent', '10', '--max', 'lots'],
      ['BAD1', '--percent', '10', '--until', 'next week'],
      ['BAD1', '--percent', '10', '--from', '2026-13-45T00:00:00Z'],
      ['BAD1', '--percent', '10', '--limit', '-1'],
      ['BAD1', '--percent', '10', '--unknown', 'x'],
      ['--percent', '10'],
    ];
    for (const args of bad) {
      await expect(run('promo:create', ...args)).rejects.toThrow(CliUsageError);
    }
    // Rules the service owns are refused by it (DomainError), not half-applied.
    await expect(run('promo:create', 'x', '--percent', '10')).rejects.toThrow(DomainError);
    await expect(run('promo:create', 'BAD2', '--percent', '10', '--from', '2027-01-01T00:00:00Z', '--until', '2026-01-01T00:00:00Z')).rejects.toThrow(
      DomainError,
    );
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM promo_codes WHERE code LIKE 'BAD%' OR code = 'X'`);
    expect(count).toBe(0);
  });

  it('ledger:check proves the books balance, and names every wallet and transfer that does not', async () => {
    const user = await createUser(t);
    await run('wallet:credit', String(user.id), '12.50', '--reason', 'ledger check');
    expect(await run('ledger:check')).toMatch(/^Ledger balanced: \d+ wallets equal their entries, \d+ transfers sum to zero$/);
    await expect(run('ledger:check', 'extra')).rejects.toThrow(CliUsageError);

    const [wallet] = await t.db.query(`SELECT id FROM wallets WHERE user_id = $1`, [user.id]);
    await t.db.query(`UPDATE wallets SET balance_minor = balance_minor + 1 WHERE id = $1`, [wallet.id]);
    await expect(run('ledger:check')).rejects.toThrow(new RegExp(`wallet ${wallet.id} \\(user ${user.id}\\): balance 12.51 USD, entries 12.50 USD`));
    await t.db.query(`UPDATE wallets SET balance_minor = balance_minor - 1 WHERE id = $1`, [wallet.id]);

    const transfer = '5f1e7c3a-0000-4000-8000-000000000001';
    await t.db.query(
      `INSERT INTO wallet_ledger_entries (wallet_id, transfer_id, amount_minor, kind, reason) VALUES ($1, $2, 100, 'funding', 'half a transfer')`,
      [wallet.id, transfer],
    );
    await t.db.query(`UPDATE wallets SET balance_minor = balance_minor + 100 WHERE id = $1`, [wallet.id]);
    await expect(run('ledger:check')).rejects.toThrow(new RegExp(`transfer ${transfer}: entries sum to 1.00 USD`));
  });

  it('categories:reload makes the running application serve a hand-edited category at once', async () => {
    const categories = async (): Promise<Array<{ id: number; base_fare: number }>> =>
      JSON.parse((await t.request({ method: 'GET', url: '/api/v1/rides/categories' })).body);
    const [first] = await categories();
    try {
      await t.db.query('UPDATE vehicle_categories SET base_fare_minor = base_fare_minor + 111 WHERE id = $1', [first!.id]);
      expect((await categories())[0]!.base_fare).toBe(first!.base_fare); // still the cached copy
      expect(await run('categories:reload')).toBe('Announced: running instances reload the vehicle categories');
      expect((await categories())[0]!.base_fare).toBeCloseTo(first!.base_fare + 1.11, 2);
    } finally {
      await t.db.query('UPDATE vehicle_categories SET base_fare_minor = base_fare_minor - 111 WHERE id = $1', [first!.id]);
      await run('categories:reload');
    }
    await expect(run('categories:reload', 'now')).rejects.toThrow(CliUsageError);
  });
});
