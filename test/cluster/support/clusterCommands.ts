/**
 * `npm run cluster:up` and `cluster:down` as a user runs them, for the tests and the benchmark: the
 * launcher in a process of its own (so the cluster outlives nothing it should not), its output kept,
 * and cluster.json read afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '@leadforge/testing';
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

/**
 * The fixture web's *.fixture.test hosts as the cluster's DNS answers them: a zone of CoreDNS's, on the
 * node's address, read by its reload plugin. Added after the last cluster:up (which applies CoreDNS's own
 * configuration and would drop it); resolves once a pod would see it (answers when it does).
 */
export async function serveFixtureZone(info: ClusterInfo, kubectl: ReturnType<typeof kubectlRunner>): Promise<void> {
  const corefile = JSON.parse(await kubectl(['get', 'configmap', 'coredns', '-n', 'kube-system', '-o', 'json'])).data.Corefile as string;
  const zone = `fixture.test:1053 {\n    template IN A fixture.test {\n        answer "{{ .Name }} 30 IN A ${info.node_ip}"\n    }\n}\n`;
  await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' }, data: { Corefile: `${zone}${corefile}` } }));
  const clusterDns = JSON.parse(await kubectl(['get', 'service', 'kube-dns', '-n', 'kube-system', '-o', 'json'])).spec.clusterIP as string;
  const resolveInside = () => {
    const script = `const r = new (require('node:dns').promises.Resolver)(); r.setServers(['${clusterDns}']); r.resolve4('site-000.fixture.test').then((a) => console.log(a.join(',')), () => console.log('none'));`;
    return execFileSync('nsenter', [`--net=${info.netns}`, process.execPath, '-e', script], { encoding: 'utf8' }).trim();
  };
  await waitFor(async () => resolveInside(), { until: (answer) => answer === info.node_ip, timeoutMs: 180_000, intervalMs: 2000, what: 'the cluster DNS answering the fixture hosts' });
}
