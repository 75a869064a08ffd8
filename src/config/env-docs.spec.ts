import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** Every variable AppConfig reads, taken from its source so a new one cannot be forgotten here. */
function variablesRead(): string[] {
  const source = read('src/config/app-config.ts');
  const names = [...source.matchAll(/read\.\w+\(\s*'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]);
  return [...new Set(names)].sort();
}

describe('configuration documentation stays in step with AppConfig', () => {
  const variables = variablesRead();

  it('finds the variables', () => {
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'JWT_SECRET', 'PORT', 'REDIS_URL']));
  });

  it('.env.example lists every variable AppConfig reads, and no other', () => {
    const example = read('.env.example');
    const listed = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(variables.filter((v) => !listed.includes(v))).toEqual([]);
    expect(listed.filter((v) => !variables.includes(v))).toEqual([]);
  });

  it('the README configuration table lists every variable', () => {
    const readme = read('README.md');
    const listed = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
    expect(variables.filter((v) => !listed.includes(v))).toEqual([]);
    expect(listed.filter((v) => !variables.includes(v))).toEqual([]);
  });
});
