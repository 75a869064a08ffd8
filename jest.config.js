/**
 * Unit tests sit beside the code; integration tests under test/ boot the real app on real PostgreSQL.
 * `npm test` runs those two projects, which need Node alone. Two more run as their own commands:
 * `process` (test/process/: the built server and CLI as real processes; `npm run test:process`
 * builds first) and `browser` (test/browser/: Swagger UI in Debian's Chromium, `npm run test:browser`).
 *
 * NestJS 12 ships as ES modules only. Node 20 runs them through require(esm), but Jest's module
 * system does not (before Node 24.9), so those packages are compiled to CommonJS for the tests.
 * swc compiles both them and the TypeScript (it does not type-check: tsc does, in CI's type-check
 * step), about ten times faster than ts-jest and Babel did: most of a fresh clone's first minute.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

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

const ESM_ONLY = esmOnlyPackages();
const typescript = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2023',
    // As tsc with experimentalDecorators and emitDecoratorMetadata: Nest and TypeORM read the types.
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
  },
  module: { type: 'commonjs' },
};
const esModules = {
  jsc: { parser: { syntax: 'ecmascript' }, target: 'es2023' },
  // A default import of a CommonJS package is its module.exports, as Node does.
  module: { type: 'commonjs', importInterop: 'node' },
};

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

module.exports = {
  testTimeout: 30000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  projects: [
    { displayName: 'unit', ...common, testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      displayName: 'integration',
      ...common,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/process/', '<rootDir>/test/browser/'],
      setupFiles: ['reflect-metadata'],
    },
    { displayName: 'process', ...common, testMatch: ['<rootDir>/test/process/**/*.e2e-spec.ts'], setupFiles: ['reflect-metadata'] },
    { displayName: 'browser', ...common, testMatch: ['<rootDir>/test/browser/**/*.e2e-spec.ts'], setupFiles: ['reflect-metadata'] },
  ],
};
