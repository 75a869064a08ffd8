import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node's globals for the plain CommonJS scripts (bench/, sim/, scripts/, the test set-up's scripts in test/support/), which node runs without a build step. */
const NODE_GLOBALS = Object.fromEntries(
  [
    'require',
    'module',
    'exports',
    '__dirname',
    '__filename',
    'process',
    'console',
    'Buffer',
    'global',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'URL',
    'URLSearchParams',
    'fetch',
    'Headers',
    'Request',
    'Response',
    'FormData',
    'Blob',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'structuredClone',
    'atob',
    'btoa',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'jest.config.js', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-function': 'off',
      'no-console': 'error',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['bench/**/*.js', 'sim/**/*.js', 'scripts/**/*.js', 'test/support/*.js'],
    languageOptions: { sourceType: 'commonjs', ecmaVersion: 'latest', globals: NODE_GLOBALS },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // Module boundaries (no cycles, no reaching into another module's internals, nothing imports
  // realtime or the composition root, common/ imports no module) are checked by dependency-cruiser:
  // .dependency-cruiser.cjs, `npm run lint`.
  // The operator console: browser ES modules served as written (src/bootstrap/console.ts).
  {
    files: ['console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'fetch',
          'sessionStorage',
          'URL',
          'URLSearchParams',
          'FormData',
          'Node',
          'setInterval',
          'clearInterval',
          'setTimeout',
          'clearTimeout',
          'WebSocket',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  // Files stay under 300 lines of code, everywhere: the service, its tests and fakes, the bench, the simulator, scripts.
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }] },
  },
);
