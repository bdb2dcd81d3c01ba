// `npm run typecheck`: `tsc --noEmit` in every workspace that has a tsconfig (each workspace type-checks
// its own sources and tests; the root's tsconfig.json has the scripts and vitest.config.ts). `npm test`
// and `npm run test:quick` run it first. Incremental: what tsc learnt is kept under node_modules/.cache/leadforge-typecheck, so a
// second check re-reads only what changed (the whole check takes minutes here, a repeat seconds).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const buildInfoDir = path.join(root, 'node_modules', '.cache', 'leadforge-typecheck');
// The compiler itself, not through npx: npx's own start cost ~0.4 s a project, 17 times.
const tsc = path.join(root, 'node_modules', '@typescript', 'native', 'bin', 'tsc');

export function typecheckProjects() {
  const services = fs.readdirSync(path.join(root, 'services')).map((d) => `services/${d}`);
  return ['packages/contracts', 'packages/kit', 'packages/service-runner', ...services, 'gateway', 'stack', 'testing', 'web', 'test', 'bench', 'deploy', '.']
    .filter((project) => fs.existsSync(path.join(root, project, 'tsconfig.json')));
}

/** One project's check: whether it passed, and what tsc printed. */
function checkProject(project) {
  const buildInfo = path.join(buildInfoDir, `${project === '.' ? 'root' : project.replaceAll('/', '-')}.tsbuildinfo`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--noEmit', '-p', project, '--incremental', '--tsBuildInfoFile', buildInfo], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', (err) => resolve({ project, ok: false, output: String(err) }));
    child.on('close', (code) => resolve({ project, ok: code === 0, output }));
  });
}

/** Type-checks every project, as many at a time as there are cores; answers false after printing what failed. */
export async function typecheck() {
  const queue = typecheckProjects();
  const results = [];
  const lane = async () => {
    for (let project = queue.shift(); project; project = queue.shift()) results.push(await checkProject(project));
  };
  await Promise.all(Array.from({ length: availableParallelism() }, lane));
  const failed = results.filter((r) => !r.ok);
  for (const { project, output } of failed) console.error(`${output}type check failed in ${project}`);
  return failed.length === 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  process.exit((await typecheck()) ? 0 : 1);
}
