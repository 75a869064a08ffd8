import { ConfigError } from './config-error';
import { readSettings, Setting, settingsOf } from './settings';

class ExampleSettings {
  @Setting.oneOf(['development', 'production'], 'development')
  readonly nodeEnv!: 'development' | 'production';
  @Setting.int(10, 1, 100)
  readonly dbPoolSize!: number;
  @Setting.bool((earlier) => earlier.nodeEnv === 'development')
  readonly autoApprove!: boolean;
  @Setting.string('usd', { check: (code) => (/^[a-z]{3}$/i.test(code) ? undefined : 'must be 3 letters'), map: (code) => code.toUpperCase() })
  readonly currency!: string;
  @Setting.optionalString({ variable: 'LEGACY_NAME' })
  readonly renamed!: string | undefined;
  @Setting.list()
  readonly origins!: readonly string[];
}

class ExtendedSettings extends ExampleSettings {
  @Setting.number(0.5, 0, 1)
  readonly extraRatio!: number;
}

function problem(env: Record<string, string>): ConfigError {
  try {
    readSettings(ExampleSettings, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('Setting declarations', () => {
  it('derive the variable from the field, keep declaration order, and record kind, default and bounds', () => {
    expect(settingsOf(ExampleSettings).map((s) => [s.field, s.variable, s.kind, s.documentedDefault])).toEqual([
      ['nodeEnv', 'NODE_ENV', 'oneOf', 'development'],
      ['dbPoolSize', 'DB_POOL_SIZE', 'int', '10'],
      ['autoApprove', 'AUTO_APPROVE', 'bool', undefined],
      ['currency', 'CURRENCY', 'string', 'usd'],
      ['renamed', 'LEGACY_NAME', 'string', undefined],
      ['origins', 'ORIGINS', 'list', ''],
    ]);
    expect(settingsOf(ExampleSettings)[1]).toMatchObject({ min: 1, max: 100 });
    expect(settingsOf(ExtendedSettings).map((s) => s.variable)).toEqual([...settingsOf(ExampleSettings).map((s) => s.variable), 'EXTRA_RATIO']);
  });

  it('read the defaults; a default may depend on a setting declared before it', () => {
    expect(readSettings(ExampleSettings, {})).toEqual({
      nodeEnv: 'development',
      dbPoolSize: 10,
      autoApprove: true,
      currency: 'USD',
      renamed: undefined,
      origins: [],
    });
    expect(readSettings(ExampleSettings, { NODE_ENV: 'production' }).autoApprove).toBe(false);
  });

  it('trim values, treat blank as unset, and run check before map', () => {
    expect(readSettings(ExampleSettings, { DB_POOL_SIZE: ' 20 ', CURRENCY: '  ', LEGACY_NAME: ' x ', ORIGINS: ' a, ,b ' })).toMatchObject({
      dbPoolSize: 20,
      currency: 'USD',
      renamed: 'x',
      origins: ['a', 'b'],
    });
    expect(readSettings(ExampleSettings, { CURRENCY: 'eur' }).currency).toBe('EUR');
  });

  it('name the variable in every refusal', () => {
    expect(problem({ DB_POOL_SIZE: '2.5' }).message).toBe('Invalid configuration: DB_POOL_SIZE must be a whole number (got "2.5")');
    expect(problem({ DB_POOL_SIZE: '0' }).message).toBe('Invalid configuration: DB_POOL_SIZE must be a number from 1 to 100 (got "0")');
    expect(problem({ NODE_ENV: 'staging' }).message).toBe('Invalid configuration: NODE_ENV must be one of development, production (got "staging")');
    expect(problem({ AUTO_APPROVE: 'Maybe' }).message).toBe('Invalid configuration: AUTO_APPROVE must be true or false (got "maybe")');
    expect(problem({ CURRENCY: 'euro' })).toMatchObject({ variable: 'CURRENCY', message: 'Invalid configuration: CURRENCY must be 3 letters' });
  });
});
