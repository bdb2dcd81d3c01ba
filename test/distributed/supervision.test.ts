/**
 * `npm run start:distributed` keeps its topology running: a process that dies after the start (a
 * service, a scraper replica, PostgreSQL, Redis, Kafka) is started again with backoff and reported in
 * its log, in topology.json and by the launcher's own health; a signal during the start stops what
 * was started, in reverse order, before the launcher exits.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@leadforge/stack';
import { missingPrerequisites } from '../../stack/src/distributed/prerequisites.ts';
import { apiClient, bearer } from '../support/api.ts';
import { SHORT_KAFKA_SESSIONS, startDistributedStack, type DistributedStackProcess, type TopologyEntry } from '../support/distributedStack.ts';
import { isolatedEnv, processAlive } from '../support/productProcess.ts';
import { waitFor } from '@leadforge/kit/testing/waitFor.ts';

const missing = missingPrerequisites();
const skipReason = missing ? ` (skipped: ${missing.what} missing; ${missing.install})` : '';
const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

const until = <T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 120_000): Promise<T> =>
  waitFor(read, { until: done, timeoutMs, intervalMs: 200 });

/** `✓ <name> ... pid <pid>` lines: what the launcher started, in order. */
const startedLines = (output: string) => [...output.matchAll(/✓ (\S+)\s+.*?pid (\d+)/g)].map((m) => ({ name: m[1], pid: Number(m[2]) }));
/** `■ stopped <name> (pid <pid>)` lines: what it stopped, in order. */
const stoppedLines = (output: string) => [...output.matchAll(/■ stopped (\S+) \(pid (\d+)\)/g)].map((m) => ({ name: m[1], pid: Number(m[2]) }));

describe.skipIf(Boolean(missing))(`start:distributed supervises what it started${skipReason}`, () => {
  let stack: DistributedStackProcess;
  let api: ReturnType<typeof apiClient>;
  let seq = 0;

  const health = async () => {
    const res = await fetch(`${stack.topology().health}/healthz`, { signal: AbortSignal.timeout(3000) });
    return { status: res.status, body: await res.json() as { status: string; components: TopologyEntry[] } };
  };
  const ready = (entry: TopologyEntry) => fetch(`${entry.url}/readyz`, { signal: AbortSignal.timeout(3000) }).then((r) => r.status, () => 0);
  /** Kills a component as a crash would, then waits until the launcher has it running again under a new pid. */
  const crash = async (name: string) => {
    const before = stack.component(name);
    expect(before.status).toBe('running');
    process.kill(before.pid, 'SIGKILL');
    const seen = await until(health, (h) => h.status === 503 || h.body.components.find((c) => c.name === name)!.restarts > before.restarts);
    const after = await until(() => stack.component(name), (c) => c.status === 'running' && c.restarts === before.restarts + 1);
    expect(after.pid).not.toBe(before.pid);
    expect(processAlive(after.pid)).toBe(true);
    expect(after.last_exit).toBe('killed by SIGKILL');
    expect(stack.output()).toMatch(new RegExp(`✗ ${name} killed by SIGKILL; restarting in \\d+\\.\\d s \\(restart ${after.restarts}\\)`));
    expect(stack.output()).toMatch(new RegExp(`↻ ${name}\\s+restarted, pid ${after.pid}`));
    return { before, after, seen };
  };
  const signUp = async () => {
    const res = await api('POST', '/api/auth/register', { name: 'Supervised', email: `supervised-${++seq}@example.com`, password: 'secret123' });
    expect(res.status).toBe(201);
    return bearer(res.body.access_token);
  };
  /** The signup grant travels auth -> Kafka -> billing: 10 credits show the event path works. */
  const granted = async (auth: Record<string, string>) => until(async () => (await api('GET', '/api/auth/me', undefined, auth)).body.credits, (c) => c === 10);

  beforeAll(async () => {
    stack = await startDistributedStack({ env: { SCRAPER_REPLICAS: '2', AUTH_REGISTER_PER_IP_PER_HOUR: '1000', ...SHORT_KAFKA_SESSIONS } });
    api = apiClient(stack.url);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    if (stack) fs.rmSync(stack.dataDir, { recursive: true, force: true });
  }, 120_000);

  it('reports every component running, in topology.json and on the launcher health', async () => {
    const topology = stack.topology();
    expect(topology.status).toBe('running');
    for (const c of topology.components) expect({ name: c.name, status: c.status, restarts: c.restarts }).toEqual({ name: c.name, status: 'running', restarts: 0 });
    const h = await health();
    expect(h.status).toBe(200);
    expect(h.body.status).toBe('running');
    expect(h.body.components.map((c) => c.name)).toEqual(topology.components.map((c) => c.name));
  });

  it('a killed Kafka broker is restarted and reported; events flow again', async () => {
    const { seen } = await crash('kafka');
    expect(seen.status === 503 ? seen.body.status : 'degraded').toBe('degraded');
    expect(await until(health, (h) => h.status === 200)).toMatchObject({ body: { status: 'running' } });
    await granted(await signUp());
  }, 300_000);

  it('a killed service process and a killed scraper replica are restarted and ready again', async () => {
    for (const name of ['billing', 'scraper-2']) {
      const { after } = await crash(name);
      expect(await until(() => ready(after), (s) => s === 200)).toBe(200);
    }
    await granted(await signUp());
  }, 300_000);

  it('killed PostgreSQL and Redis servers are restarted; every service is ready again', async () => {
    await crash('postgres');
    await crash('redis');
    const services = stack.topology().components.filter((c) => !['postgres', 'redis', 'kafka', 'prometheus', 'web', 'envoy'].includes(c.name));
    for (const c of services) expect({ name: c.name, readyz: await until(() => ready(c), (s) => s === 200) }).toEqual({ name: c.name, readyz: 200 });
    await granted(await signUp());
    expect((await health()).status).toBe(200);
  }, 300_000);

  it('Ctrl-C stops every component in reverse order of start, restarted ones included', async () => {
    const components = stack.topology().components;
    expect(await stack.stop()).toBe(0);
    const stopped = stoppedLines(stack.output());
    expect(new Set(stopped.map((s) => s.name))).toEqual(new Set(components.map((c) => c.name)));
    const position = (name: string) => stopped.findIndex((s) => s.name === name);
    // Stages: envoy, web, the services but auth, auth, kafka, redis, postgres.
    const order = ['envoy', 'web', 'billing', 'auth', 'kafka', 'redis', 'postgres'];
    for (let i = 1; i < order.length; i++) expect(position(order[i - 1])).toBeLessThan(position(order[i]));
    for (const c of components) expect({ name: c.name, alive: processAlive(c.pid) }).toEqual({ name: c.name, alive: false });
  }, 120_000);
});

describe.skipIf(Boolean(missing))(`a signal during start:distributed's start${skipReason}`, () => {
  it('stops what was started, in reverse order, before the launcher exits', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-dist-signal-'));
    fs.chmodSync(dataDir, 0o755);
    const env = isolatedEnv(await freePort(), dataDir, 'info', { SCRAPER_REPLICAS: '1' });
    const child = spawn(process.execPath, ['scripts/start-distributed.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Interrupted once PostgreSQL, Redis and Kafka run and while the services start.
      await until(() => output, (text) => /✓ auth /.test(text) || child.exitCode !== null, 400_000);
      expect(output).toMatch(/✓ auth /);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const started = startedLines(output);
    const stopped = stoppedLines(output);
    expect(started.map((s) => s.name).slice(0, 4)).toEqual(['postgres', 'redis', 'kafka', 'auth']);
    // Every process it had started is gone once the launcher has exited, the last started first.
    for (const s of started) expect({ ...s, alive: processAlive(s.pid) }).toEqual({ ...s, alive: false });
    expect(stopped.map((s) => s.name).slice(-4)).toEqual(['auth', 'kafka', 'redis', 'postgres']);
    expect(new Set(stopped.map((s) => s.pid))).toEqual(new Set(started.map((s) => s.pid)));
    expect(output).toMatch(/Stopped\./);
    expect(fs.existsSync(path.join(dataDir, 'topology.json'))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 600_000);
});
