// The architecture's import rules (docs/architecture.md, "Structure"), checked by dependency-cruiser:
// `npm run lint` and `npm test` run it as `depcruise --config .dependency-cruiser.cjs <folders>`.
// Paths are from the repository root; workspace packages (@leadforge/*) resolve to their sources.

/** Our own code: every folder that holds it. */
const OURS = '^(packages|services|gateway|stack|web|test|bench|scripts|deploy)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
        + 'shared test infrastructure (test/support, the PostgreSQL, Redis and Kafka launchers of stack/src/infrastructure) is fine while it leads to none.',
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
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/', '^lint/'] },
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
