/**
 * Unit tests sit beside the code; integration tests under test/ boot the real app on real PostgreSQL.
 * `npm test` runs those (projects unit, unit-sandboxed and integration), which need Node alone. Two
 * more run as their own commands: `process` (test/process/: the built server and CLI as real
 * processes; `npm run test:process` builds first) and `browser` (test/browser/: Swagger UI and the
 * console in Debian's Chromium, `npm run test:browser`).
 *
 * Unit and integration tests run in plain Node through jest-light-runner: each worker thread loads
 * the app's modules once and keeps them warm for every file it runs, where Jest's own runner loads
 * and compiles all of them again in a fresh registry for each file (1.3-2.1 s of CPU per file, and
 * every file then ran the app's code cold). TypeScript is compiled by swc through a require hook
 * (test/support/register-typescript.js). Files share a process, not state: each test file boots its
 * own app on its own database. A spec that mocks modules or fakes timers needs Jest's sandbox (a
 * fresh registry and clock per file): such specs are found by what they call and run in
 * `unit-sandboxed` on Jest's runner, where swc compiles the TypeScript and the ES-module-only
 * packages (NestJS 12) through Jest's transform.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

/** Top-level packages that ship ES modules only ("type": "module"), found once per run. */
function esmOnlyPackages(root = join(__dirname, 'node_modules')) {
  const names = [];
  for (const entry of readdirSync(root)) {
    const dirs = entry.startsWith('@') ? readdirSync(join(root, entry)).map((d) => `${entry}/${d}`) : [entry];
    for (const name of dirs) {
      try {
        if (JSON.parse(readFileSync(join(root, name, 'package.json'), 'utf8')).type === 'module') names.push(name);
      } catch {
        // not a package
      }
    }
  }
  return names.map((n) => n.replace(/[.+]/g, '\\$&'));
}

// The light runner is loaded by Jest itself, through Node's own require of ES modules.
const ESM_ONLY = esmOnlyPackages().filter((name) => name !== 'jest-light-runner');
const { typescript, esModules } = require('./test/support/swc-options');
const { TEST_TIMEOUT_MS } = require('./test/support/test-timeouts');

/** What only Jest's own sandbox provides: module mocks, and fake timers that end with their file. */
const NEEDS_SANDBOX = /\bjest\.(mock|doMock|unmock|requireActual|isolateModules|useFakeTimers)\(/;

function specsNeedingSandbox(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('.spec.ts') && NEEDS_SANDBOX.test(readFileSync(join(dir, file), 'utf8')))
    .map((file) => `<rootDir>/${relative(__dirname, join(dir, file))}`);
}

const SANDBOXED = specsNeedingSandbox(join(__dirname, 'src'));

const transform = {
  '^.+\\.ts$': ['@swc/jest', typescript],
  '^.+\\.js$': ['<rootDir>/test/support/swc-esm-transformer.js', esModules],
};

const common = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
};

const lightRunner = {
  runner: 'jest-light-runner',
  setupFiles: ['<rootDir>/test/support/register-typescript.js', 'reflect-metadata'],
  setupFilesAfterEnv: ['<rootDir>/test/support/light-runner-setup.js'],
};

module.exports = {
  testTimeout: TEST_TIMEOUT_MS,
  maxWorkers: 4,
  testSequencer: '<rootDir>/test/support/slow-first-sequencer.js',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  projects: [
    {
      displayName: 'unit',
      ...common,
      ...lightRunner,
      setupFilesAfterEnv: [...lightRunner.setupFilesAfterEnv, '<rootDir>/test/support/unit-setup.js'],
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...SANDBOXED],
    },
    { displayName: 'unit-sandboxed', ...common, testMatch: SANDBOXED },
    {
      displayName: 'integration',
      ...common,
      ...lightRunner,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/process/', '<rootDir>/test/browser/'],
    },
    { displayName: 'process', ...common, testMatch: ['<rootDir>/test/process/**/*.e2e-spec.ts'], setupFiles: ['reflect-metadata'] },
    { displayName: 'browser', ...common, testMatch: ['<rootDir>/test/browser/**/*.e2e-spec.ts'], setupFiles: ['reflect-metadata'] },
  ],
};
