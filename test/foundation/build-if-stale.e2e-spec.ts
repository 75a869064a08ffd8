import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS run by npm start (prestart)
const { fingerprint } = require('../../scripts/build-if-stale') as { fingerprint: (root?: string) => string };

/** npm start builds only when this fingerprint of the build's inputs differs from the last build's. */
describe('scripts/build-if-stale.js: the fingerprint of the sources', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rh-fingerprint-'));
    mkdirSync(join(root, 'src', 'modules'), { recursive: true });
    writeFileSync(join(root, 'src', 'main.ts'), 'export {};\n');
    writeFileSync(join(root, 'src', 'modules', 'a.service.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is the same while nothing changes', () => {
    expect(fingerprint(root)).toBe(fingerprint(root));
  });

  it.each([
    ['a source edited', (r: string) => writeFileSync(join(r, 'src', 'modules', 'a.service.ts'), 'export const a = 2;\n')],
    ['a source touched', (r: string) => utimesSync(join(r, 'src', 'main.ts'), new Date(), new Date(Date.now() + 5000))],
    ['a source added', (r: string) => writeFileSync(join(r, 'src', 'modules', 'b.service.ts'), 'export const b = 1;\n')],
    ['a source removed', (r: string) => rmSync(join(r, 'src', 'modules', 'a.service.ts'))],
    ['the compiler configuration edited', (r: string) => writeFileSync(join(r, 'tsconfig.json'), '{"compilerOptions":{}}\n')],
    ['a build configuration added', (r: string) => writeFileSync(join(r, 'nest-cli.json'), '{}\n')],
  ])('changes with %s', (_what, change) => {
    const before = fingerprint(root);
    change(root);
    expect(fingerprint(root)).not.toBe(before);
  });

  it('ignores unit tests, which the build does not compile', () => {
    const before = fingerprint(root);
    writeFileSync(join(root, 'src', 'modules', 'a.service.spec.ts'), 'test.todo("x");\n');
    expect(fingerprint(root)).toBe(before);
  });
});
