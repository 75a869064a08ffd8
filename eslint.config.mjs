import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const MODULES = ['auth', 'users', 'wallets', 'rides', 'drivers', 'realtime'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'jest.config.js', 'test/support/babel-import-meta.js', 'bench/**/*.js', 'scripts/**/*.js', 'sim/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-function': 'off',
      'no-console': 'error',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  // Boundaries (house style): common/ knows no module; nothing imports realtime or the composition
  // root (bootstrap/, app.module); a module uses another's service, never its repositories or entities.
  {
    files: ['src/common/**/*.ts'],
    ignores: ['src/common/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/modules/**', '**/bootstrap/**', '**/app.module'], message: 'common/ knows no module: inject what it needs from the composition root.' }] }],
    },
  },
  ...MODULES.map((name) => ({
    files: [`src/modules/${name}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/bootstrap/**', '**/app.module', ...(name === 'realtime' ? [] : ['**/realtime/**'])], message: 'Nothing imports realtime or the composition root.' },
        {
          group: MODULES.filter((other) => other !== name).flatMap((other) => [`**/${other}/**/*.repository`, `**/${other}/repositories/**`, `**/${other}/entities/**`]),
          message: "Use the other module's service, not its repositories or entities.",
        },
        ...(name === 'rides' ? [] : [{ group: ['**/rides/bids/**'], message: 'Bids belong to the marketplace (rides): ask RidesService or RideTransitionsService.' }]),
      ] }],
    },
  })),
);
