import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors.ts';
import { InternalClient } from '../src/http/internalCalls.ts';
import { waitFor } from '@leadforge/testing';

/** A stand-in for another service on loopback: each request takes the next planned behaviour. */
interface Callee {
  url: string;
  hits: string[];
  /** What the next requests meet, in order; once used up, every request gets 200 `{ ok: true }`. */
  plan: ('drop' | 'hang' | 503 | 404)[];
  close(): Promise<void>;
}

async function startCallee(): Promise<Callee> {
  const callee: Partial<Callee> = { hits: [], plan: [] };
  const server = http.createServer((req, res) => {
    callee.hits!.push(`${req.method} ${req.url}`);
    const next = callee.plan!.shift();
    if (next === 'drop') return req.socket.destroy();
    if (next === 'hang') return;
    res.setHeader('content-type', 'application/json');
    if (next === 503) return res.writeHead(503).end(JSON.stringify({ detail: 'database restarting' }));
    if (next === 404) return res.writeHead(404).end(JSON.stringify({ detail: 'User not found', code: 'user_not_found' }));
    res.end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  callee.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  callee.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return callee as Callee;
}

const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a failure'); }, (error: HttpError) => error);

describe('service-to-service calls', () => {
  let billing: Callee;
  const client = (options: ConstructorParameters<typeof InternalClient>[2] = {}) =>
    new InternalClient({ billing: billing.url }, 'token', { retryBaseMs: 5, retryMaxMs: 20, ...options });

  beforeAll(async () => { billing = await startCallee(); });
  afterAll(() => billing?.close());
  beforeEach(() => {
    billing.hits.length = 0;
    billing.plan = [];
  });

  it('tries a read again when an attempt gets no answer, and answers with the attempt that did', async () => {
    billing.plan = ['drop', 503];
    expect(await client().call('billing', 'GET', '/internal/balances/u1')).toEqual({ ok: true });
    expect(billing.hits).toEqual(Array(3).fill('GET /internal/balances/u1'));
  });

  it('tries again an attempt that timed out', async () => {
    billing.plan = ['hang'];
    expect(await client().call('billing', 'GET', '/internal/balances/u2', { timeoutMs: 200 })).toEqual({ ok: true });
    expect(billing.hits).toHaveLength(2);
  });

  it('tries a read once when its caller has a quicker fallback (retry: false)', async () => {
    billing.plan = ['hang'];
    const error = await failure(client().call('billing', 'GET', '/internal/balances/u4', { timeoutMs: 200, retry: false }));
    expect(error).toMatchObject({ statusCode: 503, code: 'upstream_unavailable' });
    expect(billing.hits).toHaveLength(1);
  });

  it('tries again a write its caller marks idempotent', async () => {
    billing.plan = [503];
    const body = { user_id: 'u', amount: 5, ref: 'search:s', idempotency_key: 'search:s:hold' };
    expect(await client().call('billing', 'POST', '/internal/reservations', { body, idempotent: true })).toEqual({ ok: true });
    expect(billing.hits).toHaveLength(2);
  });

  it('sends a write not marked idempotent once, however it fails', async () => {
    billing.plan = ['drop'];
    const error = await failure(client().call('billing', 'POST', '/internal/payouts', { body: {} }));
    expect(error).toMatchObject({ statusCode: 503, code: 'upstream_unavailable' });
    expect(billing.hits).toHaveLength(1);
  });

  it('gives up after its retries with the last answer: a 5xx becomes a 502 with its detail', async () => {
    billing.plan = [503, 503, 503, 503];
    const error = await failure(client().call('billing', 'GET', '/internal/balances/u3'));
    expect(error).toMatchObject({ statusCode: 502, detail: 'database restarting' });
    expect(billing.hits).toHaveLength(3);
  });

  it('never tries a 4xx again: it is the callee\'s answer, passed on as it is', async () => {
    billing.plan = [404];
    const error = await failure(client().call('billing', 'GET', '/internal/users/u4/purchases'));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 404, detail: 'User not found', code: 'user_not_found' });
    expect(billing.hits).toHaveLength(1);
  });

  it('opens the breaker after failures in a row: calls fail at once without reaching the service, then a trial call closes it', async () => {
    const calls = client({ retries: 0, breakerThreshold: 3, breakerOpenMs: 300 });
    billing.plan = [503, 503, 503];
    for (let i = 0; i < 3; i++) expect(await failure(calls.call('billing', 'GET', '/internal/balances/u5'))).toMatchObject({ statusCode: 502 });
    const open = await failure(calls.call('billing', 'GET', '/internal/balances/u5'));
    expect(open).toMatchObject({ statusCode: 503, code: 'upstream_circuit_open' });
    expect(open.detail).toMatch(/billing service is unavailable/);
    expect(billing.hits).toHaveLength(3);

    // Once the breaker's time is up, one call goes through again and, answered, closes it.
    const refusals = new Set<string>();
    const answer = await waitFor(
      () => calls.call('billing', 'GET', '/internal/balances/u5').catch((error: HttpError) => { refusals.add(error.code ?? String(error)); return undefined; }),
      { until: (value) => value !== undefined, what: 'the breaker to let a call through again' },
    );
    expect([...refusals].filter((code) => code !== 'upstream_circuit_open')).toEqual([]);
    expect(answer).toEqual({ ok: true });
    expect(billing.hits).toHaveLength(4);
  });

  it('counts a call, not each of its attempts, towards the breaker', async () => {
    const calls = client({ breakerThreshold: 2, breakerOpenMs: 60_000 });
    billing.plan = [503, 503, 503];
    expect(await failure(calls.call('billing', 'GET', '/internal/balances/u7'))).toMatchObject({ statusCode: 502 });
    // Three attempts failed, but only one call: the breaker is still closed.
    expect(await calls.call('billing', 'GET', '/internal/balances/u7')).toEqual({ ok: true });
    expect(billing.hits).toHaveLength(4);
  });

  it('keeps one breaker per service: another service stays reachable while one is down', async () => {
    const auth = await startCallee();
    try {
      const calls = new InternalClient({ billing: billing.url, auth: auth.url }, 'token', { retries: 0, breakerThreshold: 1, breakerOpenMs: 60_000 });
      billing.plan = ['drop'];
      await failure(calls.call('billing', 'GET', '/internal/balances/u6'));
      expect(await failure(calls.call('billing', 'GET', '/internal/balances/u6'))).toMatchObject({ code: 'upstream_circuit_open' });
      expect(await calls.call('auth', 'GET', '/internal/users/u6/standing')).toEqual({ ok: true });
    } finally {
      await auth.close();
    }
  });
});
