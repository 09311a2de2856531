/**
 * The layering, enforced by `npm run lint` (see docs/architecture.md):
 * no cycles; core never imports a module, the pipeline, channels or workers;
 * modules never import the pipeline, channels, workers or the root files;
 * routes never reach the database or a repository; modules talk to each
 * other only through what container.ts hands them.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes load order and ownership unclear; move the shared part to core/.',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-is-independent',
      severity: 'error',
      comment: 'core/ is shared by every area and must not depend on any of them.',
      from: { path: '^src/core/' },
      to: { path: '^src/(modules|pipeline|channels|workers)/|^src/(app|container|main)\\.ts$' },
    },
    {
      name: 'modules-below-pipeline-and-channels',
      severity: 'error',
      comment:
        'modules/ hold the domain; the pipeline and the channels use them, never the reverse ' +
        '(not even for a type): what a module needs from them is a port it declares, passed in by container.ts.',
      from: { path: '^src/modules/' },
      to: { path: '^src/(pipeline|channels|workers)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'routes-call-services-only',
      severity: 'error',
      comment: 'Routes declare HTTP and call one service method; queries belong in repositories.',
      from: { path: '\\.routes\\.ts$' },
      to: { path: '\\.repository\\.ts$|^src/core/db/(client|schema)|^drizzle-orm|^pg$|^@electric-sql/' },
    },
    {
      name: 'schemas-stay-declarative',
      severity: 'error',
      comment: 'Request and response schemas import no services, repositories or database code.',
      from: { path: '\\.schemas\\.ts$' },
      to: { path: '\\.(service|repository)\\.ts$|^src/core/db/' },
    },
    {
      name: 'no-module-to-module-runtime-imports',
      severity: 'error',
      comment:
        'Modules reach each other through services or repositories passed in by container.ts; ' +
        'only types and pure helpers may be imported across modules.',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/([^/]+)/.+\\.(service|repository|routes|jobs|module)\\.ts$',
        pathNot: ['^src/modules/$1/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'not-to-tests',
      severity: 'error',
      comment: 'Production code never imports test code.',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/|\\.test\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    exclude: { path: '\\.test\\.ts$' },
  },
};
