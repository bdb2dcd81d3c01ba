// The architecture's import rules (docs/architecture.md, "Structure"), checked by dependency-cruiser:
// `npm run lint` and `npm test` run it as `depcruise --config .dependency-cruiser.cjs <folders>`.
// Paths are from the repository root; workspace packages (@leadforge/*) resolve to their sources.

/** Our own code: every folder that holds it. */
const OURS = '^(packages|services|gateway|stack|testing|web|test|bench|scripts|deploy)/';

/** Test code: tests, their support, the testing package and the benchmarks. Everything else is production code. */
const TEST_CODE = ['^testing/', '^test/', '^bench/', '^(services|packages|gateway|stack|scripts)/[^/]+/test/', '^(stack|scripts|gateway)/test/', '\\.test\\.tsx?$'];

/**
 * The kit's parts, lowest first: a part imports its own files and the parts below it, never one
 * beside or above it (docs/architecture.md, "The kit").
 */
const KIT_LAYERS = [['config'], ['db', 'outbound', 'tracing'], ['work'], ['events', 'http'], ['mail'], ['service']];
const kitPart = (part) => (part === 'tracing' ? 'tracing\\.ts$' : `${part}/`);
const kitLayerRules = KIT_LAYERS.flatMap((layer, at) => layer.map((part) => ({
  name: `kit-${part}-imports-only-lower-parts`,
  severity: 'error',
  comment: `The kit's ${part} part imports only ${at === 0 ? 'itself' : KIT_LAYERS.slice(0, at).flat().join(', ')} of the kit.`,
  from: { path: `^packages/kit/src/${kitPart(part)}` },
  to: {
    path: '^packages/kit/src/',
    pathNot: [`^packages/kit/src/${kitPart(part)}`, ...KIT_LAYERS.slice(0, at).flat().map((lower) => `^packages/kit/src/${kitPart(lower)}`)],
  },
})));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Two folders whose files import each other, directly or round a longer loop (an arrow that runs back up, though no file is in a cycle): '
        + 'every level of every tree is a stack of rooms, each importing only those below it. Move the piece both need down, or hand it in from above.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or round a longer loop: move the shared piece to where both can import it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-imports-no-other-service',
      severity: 'error',
      comment: 'A service imports contracts, kit and npm packages, never another service, the launchers, the gateway or the web app.',
      from: { path: '^services/([^/]+)/(?!test/)' },
      to: { path: OURS, pathNot: ['^services/$1/', '^packages/(contracts|kit)/'] },
    },
    {
      name: 'service-parts-import-no-wiring',
      severity: 'error',
      comment: 'A service\'s parts (domain/ and its concern folders) are built and handed their collaborators by runtime.ts; they never import it or index.ts.',
      from: { path: '^services/[^/]+/src/(?!routes/|events/)[^/]+/' },
      to: { path: '^services/[^/]+/src/(index|runtime)\\.ts$' },
    },
    {
      name: 'service-runtime-imports-no-doors',
      severity: 'error',
      comment: 'runtime.ts builds the parts that routes/ and events/ (the doors) use: it stands below them.',
      from: { path: '^services/[^/]+/src/runtime\\.ts$' },
      to: { path: '^services/[^/]+/src/(routes|events)/' },
    },
    {
      name: 'service-config-and-metrics-import-nothing-of-the-service',
      severity: 'error',
      comment: 'config.ts (what the service reads from the environment) and metrics.ts (its Prometheus series) are the ground floor: every part may use them.',
      from: { path: '^services/([^/]+)/src/(config|metrics)\\.ts$' },
      to: { path: '^services/$1/src/', pathNot: '^services/$1/src/(config|metrics)\\.ts$' },
    },
    {
      name: 'web-features-import-no-app-shell',
      severity: 'error',
      comment: 'main.tsx and router.tsx put the feature folders together; no feature imports them.',
      from: { path: '^web/src/[^/]+/' },
      to: { path: '^web/src/(main|router)\\.tsx$' },
    },
    {
      name: 'production-code-imports-no-testing',
      severity: 'error',
      comment: 'The testing package (test servers, test databases, services under test, polling) is for tests and benchmarks only.',
      from: { pathNot: TEST_CODE },
      to: { path: '^testing/' },
    },
    {
      name: 'testing-imports-only-kit-contracts-and-launchers',
      severity: 'error',
      comment: 'The testing package starts services and servers for tests; it reaches no service, so a service\'s tests may use it.',
      from: { path: '^testing/' },
      to: { path: OURS, pathNot: ['^testing/', '^packages/(contracts|kit)/', '^stack/src/infrastructure/'] },
    },
    ...kitLayerRules,
    {
      name: 'kit-imports-only-contracts',
      severity: 'error',
      comment: 'The kit is what every service is made of: it knows the wire (contracts) and nothing else of ours.',
      from: { path: '^packages/kit/(?!test/)' },
      to: { path: OURS, pathNot: ['^packages/(kit|contracts)/'] },
    },
    {
      name: 'service-runner-imports-only-contracts-and-kit',
      severity: 'error',
      comment: 'The entry point finds a service by its folder when it runs; it imports no service, launcher or gateway.',
      from: { path: '^packages/service-runner/' },
      to: { path: OURS, pathNot: ['^packages/(service-runner|kit|contracts)/'] },
    },
    {
      name: 'service-tests-reach-no-other-service',
      severity: 'error',
      comment: 'A service\'s tests (the kit\'s too) never reach another service\'s code, directly or through a helper; '
        + 'shared test infrastructure (the testing package, test/support, the launchers of stack/src/infrastructure) is fine while it leads to none.',
      from: { path: '^(services|packages)/([^/]+)/test/' },
      to: { path: '^(services|packages)/[^/]+/', pathNot: ['^$1/$2/', '^packages/(contracts|kit)/'], reachable: true },
    },
    {
      name: 'contracts-import-nothing-of-ours',
      severity: 'error',
      comment: 'The contracts are the wire, and nothing else.',
      from: { path: '^packages/contracts/' },
      to: { path: OURS, pathNot: '^packages/contracts/' },
    },
    {
      name: 'web-imports-only-contracts',
      severity: 'error',
      comment: 'The SPA talks to the services over HTTP; of our code it shares only the contracts.',
      from: { path: '^web/' },
      to: { path: OURS, pathNot: ['^web/', '^packages/contracts/'] },
    },
    {
      name: 'gateway-imports-only-contracts-and-kit',
      severity: 'error',
      comment: 'The gateway routes by the route table and checks tokens with the kit; it never reaches into a service.',
      from: { path: '^gateway/' },
      to: { path: OURS, pathNot: ['^gateway/', '^packages/(contracts|kit)/'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing: the rules above cannot judge what they cannot see.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/'] },
    // Type-only imports count too: a type from another service is still a dependency on it.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
