import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerHealth, type ReadinessCheck } from '../src/http/health.ts';
import type { RunningService } from '../src/service/service.ts';
import { startServiceForTest, postgresConfigured, waitFor } from '@leadforge/testing';

describe('/readyz', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  async function probe(checks: ReadinessCheck[], shuttingDown = false) {
    app = Fastify();
    registerHealth(app, checks, () => shuttingDown);
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json() };
  }

  it('is ready with its database up, the bus down reported but not gating', async () => {
    const result = await probe([
      { name: 'database', check: async () => true },
      { name: 'bus', check: async () => false, gatesReadiness: false },
    ]);
    expect(result).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: true, bus: false } } });
  });

  // A probe that waited for a hanging check would never answer: the test's timeout is the bound.
  it('is not ready when a gating dependency fails, throws or hangs, and still answers', async () => {
    expect(await probe([{ name: 'database', check: async () => { throw new Error('gone'); } }]))
      .toMatchObject({ status: 503, body: { status: 'not_ready', checks: { database: false } } });
    await app.close();
    const hanging = await probe([{ name: 'database', check: () => new Promise<boolean>(() => {}) }]);
    expect(hanging).toMatchObject({ status: 503, body: { checks: { database: false } } });
  });

  it('does not wait for a dependency that does not gate it', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => { answer = resolve; });
    const result = await probe([
      { name: 'database', check: async () => true },
      { name: 'bus', check: async () => { await answered; return true; }, gatesReadiness: false },
    ]);
    // Answered while the bus's check had not.
    expect(result).toMatchObject({ status: 200, body: { checks: { bus: false } } });
    answer();
    // Its answer arrived meanwhile: a later probe reports it.
    await waitFor(async () => (await app.inject({ method: 'GET', url: '/readyz' })).json().checks.bus, { until: (bus) => bus === true, what: 'the bus check\'s answer in /readyz' });
  });

  it('checks in the background, never starting a check again while one still hangs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let calls = 0;
      let answer: (up: boolean) => void = () => {};
      app = Fastify();
      registerHealth(app, [{ name: 'bus', check: () => { calls++; return new Promise<boolean>((resolve) => { answer = resolve; }); }, gatesReadiness: false }], () => false);
      // Ten refresh periods while the first check hangs: still that one check.
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls).toBe(1);
      answer(true);
      await vi.advanceTimersByTimeAsync(1_100);
      expect(calls).toBe(2);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { bus: true } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 503 once shutdown starts', async () => {
    expect(await probe([], true)).toMatchObject({ status: 503, body: { status: 'shutting_down' } });
  });
});

describe.skipIf(!postgresConfigured)('/readyz of a service whose database pool is busy', () => {
  let svc: RunningService | undefined;
  afterEach(async () => { await svc?.stop(); });

  it('answers ready at once while every pooled connection is held by slow work', async () => {
    svc = await startServiceForTest({ name: 'contact', routes: async () => {} }, { kind: 'postgres' });
    const readyz = async () => {
      // No time limit of its own: a probe stuck behind the pool would hold the loop below past the test's timeout.
      const res = await fetch(`${svc!.url}/readyz`);
      return { status: res.status, body: await res.json() };
    };
    expect(await readyz()).toMatchObject({ status: 200 });
    // Every connection of the pool (10) taken, as a search's work holds them on a busy replica.
    const client = svc.ctx.db.client as { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<void> };
    const held = await Promise.all(Array.from({ length: 10 }, () => client.acquireConnection()));
    try {
      // Probes one after another for longer than a check may take (2 s) plus a refresh (1 s): each answers, ready.
      const end = Date.now() + 4_000;
      let probes = 0;
      while (Date.now() < end || probes < 3) {
        expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { database: true, bus: true } } });
        probes++;
      }
    } finally {
      await Promise.all(held.map((connection) => client.releaseConnection(connection)));
    }
  }, 60_000);
});
