// `npm run typecheck`: `tsc --noEmit` in every workspace that has a tsconfig (there is no root
// project: each workspace type-checks its own sources and tests). `npm test` and `npm run test:quick`
// run it first. Incremental: what tsc learnt is kept under node_modules/.cache/leadforge-typecheck, so a
// second check re-reads only what changed (the whole check takes minutes here, a repeat seconds).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const buildInfoDir = path.join(root, 'node_modules', '.cache', 'leadforge-typecheck');

export function typecheckProjects() {
  const services = fs.readdirSync(path.join(root, 'services')).map((d) => `services/${d}`);
  return ['packages/contracts', 'packages/kit', 'packages/service-runner', ...services, 'gateway', 'stack', 'web', 'test', 'bench', 'deploy']
    .filter((project) => fs.existsSync(path.join(root, project, 'tsconfig.json')));
}

/** Type-checks every project; answers false (after saying which) at the first that fails. */
export function typecheck() {
  for (const project of typecheckProjects()) {
    const buildInfo = path.join(buildInfoDir, `${project.replaceAll('/', '-')}.tsbuildinfo`);
    const status = spawnSync('npx', ['tsc', '--noEmit', '-p', project, '--incremental', '--tsBuildInfoFile', buildInfo], { cwd: root, stdio: 'inherit' }).status;
    if (status !== 0) {
      console.error(`type check failed in ${project}`);
      return false;
    }
  }
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  process.exit(typecheck() ? 0 : 1);
}
