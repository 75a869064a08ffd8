import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const BUILT_MAIN = join(ROOT, 'dist', 'src', 'main.js');
export const BUILT_CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Tests that spawn the real server need dist/ to match src/. Compiling takes seconds, so it only
 * happens when a source file (or the build config) is newer than the built entry point.
 */
export function ensureFreshBuild(): void {
  const sources = Math.max(
    newestSourceMtime(join(ROOT, 'src')),
    mtime(join(ROOT, 'ormconfig.ts')),
    mtime(join(ROOT, 'tsconfig.json')),
    mtime(join(ROOT, 'tsconfig.build.json')),
  );
  if (mtime(BUILT_MAIN) >= sources) return;
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (err) {
    const output = (err as { stdout?: Buffer }).stdout?.toString() ?? '';
    throw new Error(`npm run build failed:\n${output}`);
  }
}
