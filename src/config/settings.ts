import { ConfigError } from './config-error';

export type Env = Record<string, string | undefined>;

/** The fields read before the one being read (settings are read in declaration order). */
export type Earlier = Readonly<Record<string, unknown>>;

/** What one environment variable is: declared once, on the field it fills (see AppConfig). */
export interface SettingDeclaration {
  /** The field the value lands in. */
  readonly field: string;
  /** The environment variable: the field's name in SCREAMING_SNAKE_CASE unless declared otherwise. */
  readonly variable: string;
  readonly kind: 'int' | 'number' | 'bool' | 'string' | 'oneOf' | 'list';
  /** The value when the variable is unset or blank, as .env.example writes it (undefined: none, or it depends). */
  readonly documentedDefault: string | undefined;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly string[];
  /** The trimmed value (undefined when unset or blank), and the fields read before it. */
  readonly read: (value: string | undefined, earlier: Earlier) => unknown;
}

/** Extra rules of one setting: a refinement of the value already parsed by its kind, or an explicit variable name. */
export interface SettingOptions<T> {
  variable?: string;
  /** A problem (finishing "<VARIABLE> ...") when the value is not acceptable, else undefined; runs before map. */
  check?: (value: T, earlier: Earlier) => string | undefined;
  /** Rewrites the accepted value (e.g. upper-cases a code). */
  map?: (value: T, earlier: Earlier) => T;
}

/** A property decorator that also checks, at compile time, that the field holds what the setting parses to. */
export type SettingDecorator<T> = <K extends string>(target: { [P in K]: T }, field: K) => void;

const DECLARATIONS = new WeakMap<object, SettingDeclaration[]>();

const screamingSnake = (field: string): string => (/^[A-Z0-9_]+$/.test(field) ? field : field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase());

function declare<T>(
  kind: SettingDeclaration['kind'],
  documentedDefault: string | undefined,
  parse: (value: string, variable: string) => T,
  fallback: T | ((earlier: Earlier) => T),
  options: SettingOptions<T> & Pick<SettingDeclaration, 'min' | 'max' | 'values'>,
): SettingDecorator<T> {
  return (target, field) => {
    const variable = options.variable ?? screamingSnake(field);
    const read = (value: string | undefined, earlier: Earlier): T => {
      const parsed = value === undefined ? (typeof fallback === 'function' ? (fallback as (e: Earlier) => T)(earlier) : fallback) : parse(value, variable);
      const problem = options.check?.(parsed, earlier);
      if (problem !== undefined) throw new ConfigError(variable, problem);
      return options.map ? options.map(parsed, earlier) : parsed;
    };
    const { min, max, values } = options;
    const list = DECLARATIONS.get(target.constructor) ?? [];
    list.push({ field, variable, kind, documentedDefault, min, max, values, read });
    DECLARATIONS.set(target.constructor, list);
  };
}

function toNumber(value: string, variable: string, min: number, max: number): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(variable, `must be a number from ${min} to ${max} (got "${value}")`);
  }
  return parsed;
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** The kinds of setting. Values are trimmed; a blank value counts as unset. */
export const Setting = {
  int: (fallback: number, min: number, max: number, options: SettingOptions<number> = {}): SettingDecorator<number> =>
    declare(
      'int',
      String(fallback),
      (value, variable) => {
        if (!/^-?\d+$/.test(value)) throw new ConfigError(variable, `must be a whole number (got "${value}")`);
        return toNumber(value, variable, min, max);
      },
      fallback,
      { ...options, min, max },
    ),

  number: (fallback: number, min: number, max: number, options: SettingOptions<number> = {}): SettingDecorator<number> =>
    declare('number', String(fallback), (value, variable) => toNumber(value, variable, min, max), fallback, { ...options, min, max }),

  /** true/1/yes/on or false/0/no/off, any case; the fallback may depend on the fields read before. */
  bool: (fallback: boolean | ((earlier: Earlier) => boolean), options: SettingOptions<boolean> = {}): SettingDecorator<boolean> =>
    declare(
      'bool',
      typeof fallback === 'boolean' ? String(fallback) : undefined,
      (value, variable) => {
        const lower = value.toLowerCase();
        if (TRUE.includes(lower)) return true;
        if (FALSE.includes(lower)) return false;
        throw new ConfigError(variable, `must be true or false (got "${lower}")`);
      },
      fallback,
      options,
    ),

  string: (fallback: string, options: SettingOptions<string> = {}): SettingDecorator<string> =>
    declare('string', fallback, (value) => value, fallback, options),

  optionalString: (options: SettingOptions<string | undefined> = {}): SettingDecorator<string | undefined> =>
    declare<string | undefined>('string', undefined, (value) => value, undefined, options),

  oneOf: <const T extends string>(values: readonly T[], fallback: T, options: SettingOptions<T> = {}): SettingDecorator<T> =>
    declare(
      'oneOf',
      fallback,
      (value, variable) => {
        if (!(values as readonly string[]).includes(value)) throw new ConfigError(variable, `must be one of ${values.join(', ')} (got "${value}")`);
        return value as T;
      },
      fallback,
      { ...options, values },
    ),

  /** Comma-separated, each entry trimmed, empty entries dropped; unset = empty list. */
  list: (options: SettingOptions<readonly string[]> = {}): SettingDecorator<readonly string[]> =>
    declare<readonly string[]>(
      'list',
      '',
      (value) =>
        value
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== ''),
      [],
      options,
    ),
};

/** The settings declared on a class (and its ancestors), in declaration order. */
export function settingsOf(type: abstract new (...args: never[]) => unknown): readonly SettingDeclaration[] {
  const own = DECLARATIONS.get(type) ?? [];
  const parent = Object.getPrototypeOf(type) as (abstract new (...args: never[]) => unknown) | null;
  return parent && parent !== Function.prototype ? [...settingsOf(parent), ...own] : own;
}

/** Reads every setting declared on the class from the environment, in declaration order. */
export function readSettings(type: abstract new (...args: never[]) => unknown, env: Env): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const setting of settingsOf(type)) {
    const raw = env[setting.variable]?.trim();
    values[setting.field] = setting.read(raw === '' ? undefined : raw, values);
  }
  return values;
}
