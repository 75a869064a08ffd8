/**
 * The architecture's boundaries, checked in CI (`npm run lint` runs `depcruise src` after ESLint).
 *
 * - No import cycles, between files or between modules: the modules form layers, each importing only
 *   from those before it (LAYERS); a dependency the other way is a port bound by the composition root.
 * - A module reaches into another only through its face: the files at the module's root (module,
 *   services, errors, events, its vocabulary such as ride-status.ts), its services wherever they
 *   live, and its response DTOs (dto/); never its repositories, entities or other internals.
 * - Nothing imports realtime or the composition root (bootstrap/, app.module.ts) but the root itself.
 * - common/ imports no module (its unit tests may use a module's DTOs as sample input).
 */
const LAYERS = ['wallets', 'pricing', 'rides', 'drivers', 'trip-sharing', 'users', 'auth', 'realtime'];

const layerRules = LAYERS.map((name, i) => ({
  name: `layers-${name}`,
  comment: `${name} may import only the modules before it (${LAYERS.slice(0, i).join(', ') || 'none'}): no module cycles`,
  severity: 'error',
  from: { path: `^src/modules/${name}/` },
  to: { path: `^src/modules/(${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles between files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules.filter((rule) => !rule.to.path.endsWith('()/')),
    {
      name: 'module-internals',
      comment: "Another module is reached through its root files, its services and its response DTOs only.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/.+/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/dto/', '\\.service\\.ts$'],
      },
    },
    {
      name: 'module-repositories',
      comment: "Another module's repositories and entities are its own.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.*(\\.repository\\.ts$|entities/)', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'nothing-imports-realtime',
      comment: 'The live channel only listens to events: nothing imports it but the composition root.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/modules/realtime/', '^src/bootstrap/', '^src/app\\.module\\.ts$'] },
      to: { path: '^src/modules/realtime/' },
    },
    {
      name: 'nothing-imports-the-composition-root',
      comment: 'Only the entry points know every module.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/bootstrap/', '^src/app\\.module\\.ts$', '^src/main\\.ts$', '^src/cli/'] },
      to: { path: '^src/(bootstrap/|app\\.module\\.ts$)' },
    },
    {
      name: 'common-knows-no-module',
      comment: 'common/ is shared by every module and imports none (inject from the composition root instead).',
      severity: 'error',
      from: { path: '^src/common/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/(modules/|bootstrap/|app\\.module\\.ts$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle through types is still a cycle in the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
