// `npm run lint`: ESLint (eslint.config.js) and the architecture's import rules (.dependency-cruiser.cjs)
// over our code, side by side. `npm test` and `npm run test:quick` run it right after the type check.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** The folders of our code the import rules walk. */
export const CRUISED = ['packages', 'services', 'gateway', 'stack', 'testing', 'web', 'test', 'bench', 'scripts', 'deploy'];

/** Runs a tool, holding its output until it ends so two tools running at once do not interleave. */
function runTool(name, command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (status) => {
      process.stdout.write(Buffer.concat(output));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${name}: ${status === 0 ? 'passed' : 'failed'} (${seconds} s)`);
      resolve(status === 0);
    });
  });
}

/** Runs ESLint and the import rules at once (they are independent); answers whether both passed. */
export async function lint() {
  const results = await Promise.all([
    runTool('eslint', bin('eslint'), ['.']),
    runTool('import rules (dependency-cruiser)', bin('depcruise'), ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...CRUISED]),
  ]);
  return results.every(Boolean);
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  process.exit((await lint()) ? 0 : 1);
}
