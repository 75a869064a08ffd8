#!/usr/bin/env node
'use strict';
/**
 * `npm start` runs this first (prestart): it builds only when dist/ was not built from the sources as
 * they are now, so an unchanged checkout starts without compiling. The check is a fingerprint of the
 * build's inputs (each file's path, size and modification time: a file added, removed, edited or
 * touched changes it), written next to the output after every build (postbuild). Reading it costs a
 * few milliseconds; a build from scratch costs tens of seconds.
 *
 *   node scripts/build-if-stale.js           build (clean) when stale, else nothing
 *   node scripts/build-if-stale.js --record  record the current fingerprint (npm's postbuild)
 *   node scripts/build-if-stale.js --check   exit 1 when stale, 0 when fresh
 */
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.source-fingerprint');
const ENTRY = join(DIST, 'src', 'main.js');
/** What tsconfig.build.json compiles (src/ without the unit tests, ormconfig.ts) and what decides how. */
const INPUT_FILES = ['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];

function sources(dir, into) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, into);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) into.push(path);
  }
  return into;
}

function fingerprint(root = ROOT) {
  const files = [...sources(join(root, 'src'), []), ...INPUT_FILES.map((f) => join(root, f)).filter((f) => existsSync(f))];
  const lines = files.map((file) => {
    const { size, mtimeMs } = statSync(file);
    return `${relative(root, file)}\t${size}\t${mtimeMs}`;
  });
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex');
}

function isFresh() {
  if (!existsSync(ENTRY) || !existsSync(STAMP)) return false;
  return readFileSync(STAMP, 'utf8').trim() === fingerprint();
}

function record(print = fingerprint()) {
  writeFileSync(STAMP, `${print}\n`);
}

/** A clean build (no output of a deleted source survives), then the fingerprint taken before it began. */
function build(log = (line) => process.stderr.write(`${line}\n`)) {
  const print = fingerprint();
  log(existsSync(ENTRY) ? 'Sources changed since the last build: building dist/' : 'No build yet: building dist/');
  rmSync(DIST, { recursive: true, force: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BUILD_IF_STALE: '1' },
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
  record(print);
}

/** Builds when stale; returns whether it built. */
function ensureBuilt(log) {
  if (isFresh()) return false;
  build(log);
  return true;
}

if (require.main === module) {
  const arg = process.argv[2];
  if (arg === '--record') {
    // The postbuild of `npm run build` itself; a build started here records the earlier fingerprint.
    if (!process.env.BUILD_IF_STALE) record();
  } else if (arg === '--check') {
    process.exit(isFresh() ? 0 : 1);
  } else {
    try {
      ensureBuilt();
    } catch (err) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
  }
}

module.exports = { ensureBuilt, isFresh, fingerprint };
