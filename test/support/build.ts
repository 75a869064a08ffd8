import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const BUILT_MAIN = join(ROOT, 'dist', 'src', 'main.js');
export const BUILT_CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS shared with npm start (prestart)
const { ensureBuilt } = require('../../scripts/build-if-stale') as { ensureBuilt: (log?: (line: string) => void) => boolean };

/**
 * Tests that spawn the real server need dist/ to match src/: built (as `npm start` builds) only
 * when the sources changed since the last build.
 */
export function ensureFreshBuild(): void {
  ensureBuilt(() => undefined);
}
