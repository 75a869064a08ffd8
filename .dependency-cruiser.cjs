/**
 * The architecture's boundaries, checked in CI (`npm run lint` runs `depcruise src` after ESLint).
 *
 * - No import cycles, between files or between modules: the modules form layers, each importing only
 *   from those before it (LAYERS); a dependency the other way is a port bound by the composition root.
 * - A module reaches into another only through its face (FACE): its module file, its services at the
 *   module's root, its DTOs (dto/), its events and errors, its ports (what it asks of the modules
 *   above it, which they implement) and the few vocabulary files listed by name. Never its
 *   repositories, entities, sub-folders or other root files.
 * - Nothing imports realtime or the composition root (bootstrap/, app.module.ts) but the root itself.
 * - common/ imports no module (its unit tests may use a module's DTOs as sample input).
 *
 * Which module writes which table is checked apart from imports: src/database/table-ownership.spec.ts.
 */
const LAYERS = ['audit', 'wallets', 'payments', 'pricing', 'rides', 'drivers', 'trip-sharing', 'users', 'safety', 'auth', 'realtime'];

/**
 * A module's face, as paths. Each vocabulary file is named with why other modules need it: adding one
 * is a decision, not a pattern.
 */
const FACE = [
  '^src/modules/[^/]+/[^/]+\\.module\\.ts$',
  '^src/modules/[^/]+/[^/]+\\.service\\.ts$',
  '^src/modules/[^/]+/dto/',
  '^src/modules/[^/]+/[^/]+\\.events\\.ts$',
  '^src/modules/[^/]+/[^/]+\\.errors\\.ts$',
  '^src/modules/[^/]+/[^/]+\\.port\\.ts$',
  // The ride statuses and the SQL lists of them: every module that shows or waits on a ride.
  '^src/modules/rides/ride-status\\.ts$',
  // Who may see which ride fields (the start PIN is the passenger's): whoever hands a ride on (realtime, safety).
  '^src/modules/rides/ride-audience\\.ts$',
  // The stored estimate and its read model: rides store and embed it, its request DTOs use RIDE_TYPES.
  '^src/modules/pricing/fare-estimate\\.ts$',
  // How phones and e-mails are normalised: auth signs in with them.
  '^src/modules/users/contact\\.ts$',
  // The revocation cut-off of access tokens: auth's logout and replay set it.
  '^src/modules/users/session-cutoff\\.ts$',
];

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
      name: 'module-face',
      comment: 'Another module is reached through its face only (FACE): module file, root services, dto/, events, errors, ports, the listed vocabulary.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', ...FACE] },
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
