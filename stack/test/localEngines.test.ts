import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import ClientPgLite from 'knex-pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../src/embedded/startStack.ts';
import { waitFor } from '@leadforge/testing';

const env = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  TEST_DATABASE_URL: '',
  KAFKA_BROKERS: '',
  REDIS_URL: '',
  LOG_LEVEL: 'error',
});

async function call(stack: RunningStack, method: string, route: string, body?: unknown, token?: string) {
  const res = await fetch(`${stack.url}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => undefined) as any };
}

const until = <T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> =>
  waitFor(probe, { until: done, timeoutMs, intervalMs: 100 });

const service = (stack: RunningStack, name: string) => stack.services.find((s) => s.name === name)!;

describe('local mode: one embedded engine per service, none waiting on another', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-engines-'));
  let stack: RunningStack;
  beforeAll(async () => { stack = await startStack({ port: 0, env: env(dataDir) }); }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves requests and consumes events while one service holds a long transaction', async () => {
    const held = await service(stack, 'contact').ctx.db.transaction();
    try {
      await held.raw('select 1');
      // Registering runs in auth; the signup grant is billing consuming user.registered, and the
      // balance /me shows is auth consuming billing's answer: two services and two consumers.
      const reg = await call(stack, 'POST', '/api/auth/register', { name: 'Held', email: 'held@example.com', password: 'secret123' });
      expect(reg.status).toBe(201);
      const me = await until(() => call(stack, 'GET', '/api/auth/me', undefined, reg.body.access_token), (r) => r.body?.credits > 0);
      expect(me.status).toBe(200);
      expect(me.body.credits).toBeGreaterThan(0);
      const handled = await service(stack, 'billing').ctx.db('kit_handled_events').count('* as n').first();
      expect(Number(handled?.n)).toBeGreaterThan(0);
    } finally {
      await held.commit();
    }
    // The holder itself goes on once its transaction ends.
    expect((await service(stack, 'contact').ctx.db.raw('select 1 as one')).rows[0].one).toBe(1);
  }, 60_000);

  it('keeps each service in its own folder under DATA_DIR', () => {
    for (const s of stack.services) expect(fs.existsSync(path.join(dataDir, s.name, 'PG_VERSION'))).toBe(true);
  });
});

describe('local mode: a data folder written by an earlier version is read, not replaced', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-engines-old-'));
  let stack: RunningStack;

  beforeAll(async () => {
    // The earlier layout and engine settings: one PGlite folder per service opened with PGlite's
    // defaults through knex-pglite, here holding a row the new code must still find.
    for (const name of ['auth', 'billing']) {
      const dir = path.join(dataDir, name);
      fs.mkdirSync(dir, { recursive: true });
      const old = knexFactory({ client: ClientPgLite as never, dialect: 'postgres', connection: { filename: dir } as never });
      await old.raw('create table earlier_data (note text)');
      await old('earlier_data').insert({ note: `${name} before the upgrade` });
      await old.destroy();
    }
    stack = await startStack({ port: 0, env: env(dataDir) });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens the existing folders with their data and migrates on top of them', async () => {
    for (const name of ['auth', 'billing']) {
      const rows = await service(stack, name).ctx.db('earlier_data').select('note');
      expect(rows).toEqual([{ note: `${name} before the upgrade` }]);
    }
    const reg = await call(stack, 'POST', '/api/auth/register', { name: 'After', email: 'after@example.com', password: 'secret123' });
    expect(reg.status).toBe(201);
  });

  it('keeps data across a restart', async () => {
    await stack.stop();
    stack = await startStack({ port: 0, env: env(dataDir) });
    const login = await call(stack, 'POST', '/api/auth/login', { email: 'after@example.com', password: 'secret123' });
    expect(login.status).toBe(200);
  }, 120_000);

  it('lets `npm run user:promote` change the stopped product\'s data', async () => {
    await stack.stop();
    const root = path.resolve(new URL('../..', import.meta.url).pathname);
    const promoted = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/user-promote.ts', 'after@example.com'], { cwd: root, env: env(dataDir), encoding: 'utf8' });
    expect(promoted.stdout).toContain('is now an administrator');
    expect(promoted.status).toBe(0);
    stack = await startStack({ port: 0, env: env(dataDir) });
    const login = await call(stack, 'POST', '/api/auth/login', { email: 'after@example.com', password: 'secret123' });
    const me = await call(stack, 'GET', '/api/auth/me', undefined, login.body.access_token);
    expect(me.body.role).toBe('admin');
  }, 120_000);
});
