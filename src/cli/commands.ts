import type { INestApplicationContext } from '@nestjs/common';
import { toMajor } from '../common/money';
import { AppConfig } from '../config/app-config';
import { DriverDecision, DriversService } from '../modules/drivers/drivers.service';
import { CreatePromoCodeInput, PricingService } from '../modules/pricing/pricing.service';
import { VehicleCategoriesService } from '../modules/pricing/vehicle-categories.service';
import { isOperatorRole, OPERATOR_ROLES } from '../common/auth/operator-permissions';
import { OperatorAccountsService } from '../modules/users/operator-accounts.service';
import { UsersService } from '../modules/users/users.service';
import { WalletsService } from '../modules/wallets/wallets.service';
import { amountArg, CliCheckFailed, CliUsageError, dateArg, expectPositionals, parseCommandArgs, reasonArg, userIdArg, wholeNumberArg } from './cli-args';

/**
 * Operator commands. Each is a function of the running application (built by createApp, not
 * listening) and its arguments; it calls one service method and returns the line to print.
 * Services refuse with their DomainError (printed as is); bad arguments raise CliUsageError.
 */
export interface CliCommand {
  usage: string;
  summary: string;
  run(app: INestApplicationContext, args: string[]): Promise<string>;
}

const money = (app: INestApplicationContext, minor: number): string => `${toMajor(minor).toFixed(2)} ${app.get(AppConfig, { strict: false }).currency}`;

function driverDecisionCommand(decision: DriverDecision, summary: string): CliCommand {
  const usage = `driver:${decision} <userId> [--reason "..."]`;
  return {
    usage,
    summary,
    async run(app, args) {
      const parsed = parseCommandArgs(args, { reason: { type: 'string' } }, usage);
      const [id] = expectPositionals(parsed, ['userId'], usage);
      const userId = userIdArg(id, usage);
      const reason = reasonArg(parsed.options.reason, `driver:${decision} with the operator CLI`, usage);
      const driver = await app.get(DriversService, { strict: false }).decide(userId, decision, { actorId: null, reason });
      return `Driver ${driver.user_id} is now ${driver.status}${driver.is_online ? ' (online)' : ''}`;
    },
  };
}

function blockCommand(blocked: boolean): CliCommand {
  const usage = `user:${blocked ? 'block' : 'unblock'} <userId> [--reason "..."]`;
  return {
    usage,
    summary: blocked ? 'Block a user: login, refresh and access tokens stop working, live sockets close' : 'Unblock a user',
    async run(app, args) {
      const parsed = parseCommandArgs(args, { reason: { type: 'string' } }, usage);
      const [id] = expectPositionals(parsed, ['userId'], usage);
      const userId = userIdArg(id, usage);
      const reason = reasonArg(parsed.options.reason, `${blocked ? 'Blocked' : 'Unblocked'} with the operator CLI`, usage);
      const user = await app.get(UsersService, { strict: false }).setBlocked(userId, blocked, { actorId: null, reason });
      return `User ${user.id} is now ${user.is_blocked ? 'blocked' : 'unblocked'}`;
    },
  };
}

const WALLET_CREDIT_USAGE = 'wallet:credit <userId> <amount> --reason "..."';
const walletCredit: CliCommand = {
  usage: WALLET_CREDIT_USAGE,
  summary: "Credit a user's wallet from outside the platform (amount in major units, e.g. 25.00)",
  async run(app, args) {
    const parsed = parseCommandArgs(args, { reason: { type: 'string' } }, WALLET_CREDIT_USAGE);
    const [id, amount] = expectPositionals(parsed, ['userId', 'amount'], WALLET_CREDIT_USAGE);
    const userId = userIdArg(id, WALLET_CREDIT_USAGE);
    const amountMinor = amountArg('amount', amount, WALLET_CREDIT_USAGE);
    const reason = parsed.options.reason?.trim();
    if (!reason) throw new CliUsageError('--reason is required: it is recorded on the ledger entry', WALLET_CREDIT_USAGE);
    if (reason.length > 200) throw new CliUsageError('--reason must be at most 200 characters', WALLET_CREDIT_USAGE);
    const wallet = await app.get(WalletsService, { strict: false }).creditFromExternal(userId, amountMinor, reason);
    return `Credited ${money(app, amountMinor)} to user ${userId} (wallet ${wallet.id}, balance ${money(app, wallet.balanceMinor)}): ${reason}`;
  },
};

const PROMO_USAGE =
  'promo:create <CODE> --percent 10 | --fixed 5.00 [--max 10.00] [--from ISO] [--until ISO] [--limit N] [--description "..."] [--reason "..."]';
const promoCreate: CliCommand = {
  usage: PROMO_USAGE,
  summary: 'Create a promo code: a whole percent (optionally capped by --max) or a fixed amount off',
  async run(app, args) {
    const s = { type: 'string' } as const;
    const parsed = parseCommandArgs(args, { percent: s, fixed: s, max: s, from: s, until: s, limit: s, description: s, reason: s }, PROMO_USAGE);
    const [code] = expectPositionals(parsed, ['CODE'], PROMO_USAGE);
    const o = parsed.options;
    if ((o.percent === undefined) === (o.fixed === undefined)) {
      throw new CliUsageError('Give exactly one of --percent or --fixed', PROMO_USAGE);
    }
    const input: CreatePromoCodeInput =
      o.percent !== undefined
        ? { code, discountType: 'percentage', discountValue: wholeNumberArg('--percent', o.percent, 1, 100, PROMO_USAGE) }
        : { code, discountType: 'fixed', discountValue: amountArg('--fixed', o.fixed!, PROMO_USAGE) };
    if (o.max !== undefined) input.maxDiscountMinor = amountArg('--max', o.max, PROMO_USAGE);
    if (o.from !== undefined) input.validFrom = dateArg('--from', o.from, PROMO_USAGE);
    if (o.until !== undefined) input.validUntil = dateArg('--until', o.until, PROMO_USAGE);
    if (o.limit !== undefined) input.usageLimit = wholeNumberArg('--limit', o.limit, 0, 2_000_000_000, PROMO_USAGE);
    if (o.description !== undefined) input.description = o.description;

    const reason = reasonArg(o.reason, 'Created with the operator CLI', PROMO_USAGE);
    const row = await app.get(PricingService, { strict: false }).createPromoCode(input, { actorId: null, reason });
    const discount =
      row.discount_type === 'percentage'
        ? `${row.discount_value}% off${row.max_discount_minor !== null ? ` (at most ${money(app, row.max_discount_minor)})` : ''}`
        : `${money(app, row.discount_value)} off`;
    const validity = [
      row.valid_from ? `from ${new Date(row.valid_from).toISOString()}` : '',
      row.valid_until ? `until ${new Date(row.valid_until).toISOString()}` : '',
    ].filter(Boolean);
    const limit = row.usage_limit === null ? 'unlimited uses' : `at most ${row.usage_limit} uses`;
    return `Created promo code ${row.code} (id ${row.id}): ${discount}, valid ${validity.join(' ') || 'with no time limit'}, ${limit}`;
  },
};

const OPERATOR_ADD_USAGE = `operator:add <email> <${OPERATOR_ROLES.join('|')}> [--reason "..."]`;
const operatorAdd: CliCommand = {
  usage: OPERATOR_ADD_USAGE,
  summary: 'Add an operator: they sign in to the console with a code sent to the e-mail',
  async run(app, args) {
    const parsed = parseCommandArgs(args, { reason: { type: 'string' } }, OPERATOR_ADD_USAGE);
    const [email, role] = expectPositionals(parsed, ['email', 'operator_role'], OPERATOR_ADD_USAGE);
    if (!isOperatorRole(role)) throw new CliUsageError(`operator_role must be one of ${OPERATOR_ROLES.join(', ')} (got "${role}")`, OPERATOR_ADD_USAGE);
    const reason = reasonArg(parsed.options.reason, 'Added with the operator CLI', OPERATOR_ADD_USAGE);
    const operator = await app.get(OperatorAccountsService, { strict: false }).add(email, role, { actorId: null, reason });
    return `Operator ${operator.id} (${operator.email}) added as ${operator.operator_role}`;
  },
};

const LEDGER_CHECK_USAGE = 'ledger:check';
const ledgerCheck: CliCommand = {
  usage: LEDGER_CHECK_USAGE,
  summary: 'Prove the money adds up: every wallet balance equals its ledger entries, every transfer sums to zero (exit 1 otherwise)',
  async run(app, args) {
    expectPositionals(parseCommandArgs(args, {}, LEDGER_CHECK_USAGE), [], LEDGER_CHECK_USAGE);
    const report = await app.get(WalletsService, { strict: false }).checkLedger();
    if (report.wallets.length === 0 && report.transfers.length === 0) {
      return `Ledger balanced: ${report.walletCount} wallets equal their entries, ${report.transferCount} transfers sum to zero`;
    }
    const lines = [
      ...report.wallets.map(
        (w) =>
          `wallet ${w.wallet_id} (${w.user_id === null ? w.kind : `user ${w.user_id}`}): balance ${money(app, Number(w.balance_minor))}, entries ${money(app, Number(w.ledger_minor))}`,
      ),
      ...report.transfers.map((t) => `transfer ${t.transfer_id}: entries sum to ${money(app, Number(t.sum_minor))}`),
    ];
    throw new CliCheckFailed(`Ledger does not add up (${report.wallets.length} wallets, ${report.transfers.length} transfers):\n  ${lines.join('\n  ')}`);
  },
};

const CATEGORIES_RELOAD_USAGE = 'categories:reload';
const categoriesReload: CliCommand = {
  usage: CATEGORIES_RELOAD_USAGE,
  summary: 'After editing vehicle_categories by hand (fares, activity): every running instance reloads the categories at once',
  async run(app, args) {
    expectPositionals(parseCommandArgs(args, {}, CATEGORIES_RELOAD_USAGE), [], CATEGORIES_RELOAD_USAGE);
    app.get(VehicleCategoriesService, { strict: false }).announceChanged();
    return 'Announced: running instances reload the vehicle categories';
  },
};

export const COMMANDS: Readonly<Record<string, CliCommand>> = {
  'driver:approve': driverDecisionCommand('approve', 'Approve a driver: needs the license and vehicle registration on file unless DRIVER_AUTO_APPROVE'),
  'driver:reject': driverDecisionCommand('reject', 'Reject a driver (takes them offline)'),
  'driver:suspend': driverDecisionCommand('suspend', 'Suspend a driver (takes them offline)'),
  'driver:reinstate': driverDecisionCommand('reinstate', 'Lift a suspension'),
  'user:block': blockCommand(true),
  'user:unblock': blockCommand(false),
  'wallet:credit': walletCredit,
  'promo:create': promoCreate,
  'operator:add': operatorAdd,
  'ledger:check': ledgerCheck,
  'categories:reload': categoriesReload,
};

export function helpText(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return [
    'Usage: npm run cli -- <command> [arguments]',
    '',
    'Commands:',
    ...lines,
    '  help',
    '      This text',
    '',
    'Database: DATABASE_URL, else the embedded server of a running `npm start` (.data/postgres.url), else an embedded one started for the command.',
  ].join('\n');
}

/** Looks the command up; throws CliUsageError for an unknown one. `help` needs no application. */
export function findCommand(name: string | undefined): CliCommand {
  const command = name ? COMMANDS[name] : undefined;
  if (!command) throw new CliUsageError(name ? `Unknown command "${name}"` : 'No command given');
  return command;
}

export async function executeCommand(app: INestApplicationContext, argv: string[]): Promise<string> {
  const [name, ...args] = argv;
  return findCommand(name).run(app, args);
}
