/**
 * Import boundaries (docs/architecture.md), checked by dependency-cruiser (`npm run lint:deps`, part of
 * `npm run lint`). Test files may reach into the module they test; production code may not.
 *
 * No violation is excepted, so any new one fails the check.
 */
const TEST = '(\\.test\\.tsx?$|^test/)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere (a cycle makes load order and ownership unclear).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'module-deep-import',
      severity: 'error',
      comment: 'Modules meet only at index.ts: another module\'s files are reached through its index.',
      from: { path: '^src/modules/([^/]+)/', pathNot: TEST },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'outside-deep-import',
      severity: 'error',
      comment: 'Outside the modules (app.ts, bootstrap, platform), a module is imported only through its index.ts.',
      from: { path: '^src/', pathNot: ['^src/modules/', TEST] },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'platform-imports-no-module',
      severity: 'error',
      comment: 'platform/ is infrastructure: it imports no module and no carrier code. (A type-only import of the carrier registry\'s interface is allowed: Deps carries the registry app.ts made.)',
      from: { path: '^src/platform/', pathNot: TEST },
      to: { path: '^src/(modules|carriers)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'platform-imports-no-module-types',
      severity: 'error',
      comment: 'The one type platform/ may take from outside it is the carrier registry\'s.',
      from: { path: '^src/platform/', pathNot: TEST },
      to: { path: '^src/(modules/|carriers/(?!registry\\.ts$))' },
    },
    {
      name: 'carriers-stay-pure',
      severity: 'error',
      comment: 'A carrier imports no database, no Fastify and no module: only carriers/types, the shared carrier kits and HTTP utilities.',
      from: { path: '^src/carriers/', pathNot: TEST },
      to: {
        path: ['^src/(modules|bootstrap)/', '^src/platform/(db|http|jobs)/', '^src/app\\.ts$', '(^|/)node_modules/(fastify|@fastify/[^/]+|fastify-plugin|kysely|pg|pg-boss|@electric-sql/pglite|ioredis)/'],
      },
    },
    {
      name: 'channels-stay-pure',
      severity: 'error',
      comment: 'A store platform speaks only its protocol: no database, no Fastify and no module; only channels/types, the channel HTTP client and the carriers\' HTTP utilities it reuses.',
      from: { path: '^src/channels/', pathNot: TEST },
      to: {
        path: ['^src/(modules|bootstrap)/', '^src/platform/(db|http|jobs)/', '^src/app\\.ts$', '(^|/)node_modules/(fastify|@fastify/[^/]+|fastify-plugin|kysely|pg|pg-boss|@electric-sql/pglite|ioredis)/'],
      },
    },
    {
      name: 'migrations-import-nothing-from-src',
      severity: 'error',
      comment: 'Migrations are frozen history: they import nothing from src/.',
      from: { path: '^migrations/' },
      to: { path: '^src/' },
    },
    {
      name: 'production-never-imports-test',
      severity: 'error',
      comment: 'Production code never imports test/ (helpers, fixtures).',
      from: { path: '^src/', pathNot: TEST },
      to: { path: '^test/' },
    },
    {
      name: 'dashboard-knows-only-the-api',
      severity: 'error',
      comment: 'The dashboard talks to the service only over HTTP: it imports nothing from src/ (the generated client schema is types).',
      from: { path: '^web/src/' },
      to: { path: '^src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
