/**
 * `npm run start:distributed` keeps its topology running: a process that dies after the start (a
 * service, a scraper replica, PostgreSQL, Redis, Kafka) is started again with backoff and reported in
 * its log, in topology.json and by the launcher's own health. It runs on the stack of
 * test/distributed/product.test.ts (a production shape costs a minute of both cores to start), whose
 * last test stops it with Ctrl-C: every component in reverse order of start, restarted ones included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { apiClient, bearer } from '../support/api.ts';
import type { DistributedStackProcess, TopologyEntry } from '../support/distributedStack.ts';
import { processAlive } from '../support/productProcess.ts';

const until = <T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 120_000): Promise<T> =>
  waitFor(read, { until: done, timeoutMs, intervalMs: 200 });

export function describeSupervision(shared: () => { stack: DistributedStackProcess }): void {
  describe('start:distributed supervises what it started', () => {
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
      // The launcher prints its lines before it rewrites topology.json, but they reach us through a pipe: wait for them.
      const reported = [new RegExp(`✗ ${name} killed by SIGKILL; restarting in \\d+\\.\\d s \\(restart ${after.restarts}\\)`), new RegExp(`↻ ${name}\\s+restarted, pid ${after.pid}`)];
      const output = await until(() => stack.output(), (text) => reported.every((line) => line.test(text)), 10_000);
      for (const line of reported) expect(output).toMatch(line);
      return { before, after, seen };
    };
    const signUp = async () => {
      const res = await api('POST', '/api/auth/register', { name: 'Supervised', email: `supervised-${++seq}@example.com`, password: 'secret123' });
      expect(res.status).toBe(201);
      return bearer(res.body.access_token);
    };
    /** The signup grant travels auth -> Kafka -> billing: 10 credits show the event path works. */
    const granted = async (auth: Record<string, string>) => until(async () => (await api('GET', '/api/auth/me', undefined, auth)).body.credits, (c) => c === 10);

    beforeAll(() => {
      ({ stack } = shared());
      api = apiClient(stack.url);
    });

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
  });
}
