import { parseArgs } from 'node:util';
import { reasonProblem } from '../common/http/reason.dto';
import { toMinor } from '../common/money';

/** Bad input on the command line: printed with the command's usage, exit code 2. */
export class CliUsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** The command ran and found something wrong (e.g. an unbalanced ledger): printed as is, exit code 1. */
export class CliCheckFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliCheckFailed';
  }
}

export type OptionSpec = Record<string, { type: 'string' }>;

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | undefined>;
}

/** Strict: an unknown option or a missing value is an error, never silently ignored. */
export function parseCommandArgs(args: string[], options: OptionSpec, usage: string): ParsedArgs {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { positionals: parsed.positionals, options: parsed.values as Record<string, string | undefined> };
  } catch (err) {
    // Node's parseArgs messages start with "TypeError [ERR_PARSE_ARGS_…]: "; the operator needs the rest.
    const message = err instanceof Error ? err.message : String(err);
    throw new CliUsageError(message.replace(/^\w*Error \[[A-Z_]+\]: /, ''), usage);
  }
}

export function expectPositionals(parsed: ParsedArgs, names: string[], usage: string): string[] {
  if (parsed.positionals.length !== names.length) {
    if (names.length === 0) throw new CliUsageError('This command takes no arguments', usage);
    throw new CliUsageError(`Expected ${names.map((n) => `<${n}>`).join(' ')}, got ${parsed.positionals.length} argument(s)`, usage);
  }
  return parsed.positionals;
}

export function userIdArg(value: string, usage: string): number {
  const id = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new CliUsageError(`userId must be a positive whole number (got "${value}")`, usage);
  return id;
}

/** "25", "25.5" or "25.50" (major units) → minor units; refuses zero, negatives and a third decimal. */
export function amountArg(name: string, value: string, usage: string): number {
  const minor = /^\d+(\.\d{1,2})?$/.test(value) ? toMinor(Number(value)) : undefined;
  if (minor === undefined || minor <= 0 || !Number.isSafeInteger(minor)) {
    throw new CliUsageError(`${name} must be a positive amount with at most 2 decimals, e.g. 25.00 (got "${value}")`, usage);
  }
  return minor;
}

export function wholeNumberArg(name: string, value: string, min: number, max: number, usage: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new CliUsageError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`, usage);
  }
  return n;
}

/** An ISO 8601 date-time with a time zone (Z or ±hh:mm), so that nobody guesses the server's zone. */
export function dateArg(name: string, value: string, usage: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(value) || Number.isNaN(date.getTime())) {
    throw new CliUsageError(`${name} must be an ISO 8601 UTC date-time such as 2026-12-31T23:59:59Z (got "${value}")`, usage);
  }
  return date;
}

/**
 * --reason of a write, recorded in the audit trail with `actor_id: null` (CONTRACT §13) under the
 * API's rule (3 to 500 characters); a command given none records `fallback`, its own name.
 */
export function reasonArg(value: string | undefined, fallback: string, usage: string): string {
  const reason = value ?? fallback;
  const problem = reasonProblem(reason);
  if (problem) throw new CliUsageError(`--${problem}`, usage);
  return reason.trim();
}
