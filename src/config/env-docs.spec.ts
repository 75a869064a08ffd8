import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from './app-config';
import { OutreachEnv } from './outreach-config';
import { SettingDeclaration, settingsOf } from './settings';

const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** Every variable the service reads, from the declarations themselves. */
const SETTINGS: readonly SettingDeclaration[] = [...settingsOf(AppConfig), ...settingsOf(OutreachEnv)];
const variables = SETTINGS.map((s) => s.variable).sort();

/** `# NAME=value` lines of .env.example. */
const exampleValues = (): Map<string, string> =>
  new Map([...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()]));

/** The configuration table of docs/configuration.md: variable → default column. */
const documentedDefaults = (): Map<string, string> =>
  new Map([...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));

describe('configuration documentation stays in step with the declared settings', () => {
  it('finds the settings, each variable once', () => {
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'JWT_SECRET', 'PORT', 'REDIS_URL', 'SMTP_URL']));
    expect(new Set(variables).size).toBe(variables.length);
  });

  it('.env.example lists every declared setting, and no other', () => {
    const listed = [...exampleValues().keys()];
    expect(variables.filter((v) => !listed.includes(v))).toEqual([]);
    expect(listed.filter((v) => !variables.includes(v))).toEqual([]);
  });

  it('.env.example shows each declared default, and every value it shows is accepted', () => {
    const example = exampleValues();
    for (const setting of SETTINGS) {
      const shown = example.get(setting.variable)!;
      if (setting.documentedDefault !== undefined && setting.documentedDefault !== '') {
        expect([setting.variable, shown]).toEqual([setting.variable, setting.documentedDefault]);
      }
      expect(() => setting.read(shown === '' ? undefined : shown, { nodeEnv: 'development' })).not.toThrow();
    }
  });

  it('the configuration table (docs/configuration.md) lists every declared setting with its default', () => {
    const table = documentedDefaults();
    const listed = [...table.keys()];
    expect(variables.filter((v) => !listed.includes(v))).toEqual([]);
    expect(listed.filter((v) => !variables.includes(v))).toEqual([]);
    for (const setting of SETTINGS) {
      if (setting.documentedDefault === undefined || setting.documentedDefault === '') continue;
      expect([setting.variable, table.get(setting.variable)]).toEqual([setting.variable, `\`${setting.documentedDefault}\``]);
    }
  });

  it('numeric settings declare bounds that hold their default', () => {
    for (const setting of SETTINGS.filter((s) => s.kind === 'int' || s.kind === 'number')) {
      const value = Number(setting.documentedDefault);
      expect([setting.variable, setting.min! <= value && value <= setting.max!]).toEqual([setting.variable, true]);
    }
  });
});
