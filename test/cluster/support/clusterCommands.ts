/**
 * `npm run cluster:up` and `cluster:down` as a user runs them, for the tests and the benchmark: the
 * launcher in a process of its own (so the cluster outlives nothing it should not), its output kept,
 * and cluster.json read afterwards.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ClusterInfo } from '../../../stack/src/cluster/localCluster.ts';
import { REPO_ROOT } from '../../../deploy/workspaceServices.ts';

export type { ClusterInfo };

export interface ClusterCommandResult {
  code: number | null;
  output: string;
  seconds: number;
}

/** Runs `cluster:<command>` with `env`; rejects with the launcher's last lines when it fails. */
export function clusterCommand(command: 'up' | 'down', env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<ClusterCommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'stack/src/cluster/main.ts'), command], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk;
      for (const line of chunk.toString().split('\n')) if (line.trim()) onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('exit', (code) => {
      const result = { code, output, seconds: (Date.now() - started) / 1000 };
      if (code === 0) resolve(result);
      else reject(new Error(`cluster:${command} exited with ${code}:\n${output.split('\n').slice(-40).join('\n')}`));
    });
  });
}

export function readClusterInfo(dataDir: string): ClusterInfo {
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'cluster', 'cluster.json'), 'utf8'));
}

/** kubectl against the cluster, through cluster.json's argv prefix; the parsed JSON with `-o json`. */
export function kubectlRunner(info: ClusterInfo) {
  return function kubectl(args: string[], input?: string): Promise<string> {
    const [command, ...prefix] = info.kubectl;
    return new Promise((resolve, reject) => {
      const child = spawn(command!, [...prefix, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`kubectl ${args.join(' ')} (${code}): ${err.trim()}`))));
      child.stdin.end(input ?? '');
    });
  };
}
