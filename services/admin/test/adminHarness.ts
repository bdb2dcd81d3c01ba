import { createMemoryBus } from '@leadforge/kit/events';
import { startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import { startService, type RunningService } from '@leadforge/kit/service';
import type { Bus } from '@leadforge/kit/events';
import adminService from '../src/index.ts';
import { startAuthStandIn, type AuthStandIn } from './standIns/authStandIn.ts';
import { billingStandIn } from './standIns/billingStandIn.ts';

export interface JsonAnswer<T = any> {
  status: number;
  body: T;
}

export type Caller = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<JsonAnswer>;

export function callerFor(baseUrl: string): Caller {
  return async (method, path, body, headers = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface AdminHarness {
  bus: Bus;
  auth: AuthStandIn;
  billing: RunningService;
  admin: RunningService;
  /** Calls the admin service directly. */
  call: Caller;
  register(name: string, email: string): Promise<{ id: string; token: string }>;
  /** Another admin service with its own empty database on the same bus. */
  startAnotherAdmin(): Promise<RunningService>;
  /** A second replica of the admin service on the same (Postgres) database, as in a cluster. */
  startReplica(): Promise<RunningService>;
  stop(): Promise<void>;
}

export const ROOT_EMAIL = 'root@example.com';

/**
 * Stand-ins for auth and billing and the admin service under test (billing's stand-in and admin each
 * with its own database, PGlite or Postgres), sharing one in-process bus.
 */
export async function startAdminHarness(kind: TestDatabaseKind): Promise<AdminHarness> {
  const bus = createMemoryBus();
  const billing = await startServiceForTest(billingStandIn, { kind, bus });
  const auth = await startAuthStandIn(bus, [ROOT_EMAIL]);
  const adminEnv = { AUTH_URL: auth.url, BILLING_URL: billing.url };
  const admin = await startServiceForTest(adminService, { kind, bus, env: adminEnv });
  const extra: RunningService[] = [];
  return {
    bus,
    auth,
    billing,
    admin,
    call: callerFor(admin.url),
    register: (name, email) => auth.register(name, email),
    async startAnotherAdmin() {
      const another = await startServiceForTest(adminService, { kind, bus, env: adminEnv });
      extra.push(another);
      return another;
    },
    async startReplica() {
      const url = admin.ctx.config.databaseUrl;
      if (!url) throw new Error('replicas share a database only on Postgres');
      const replica = await startService(adminService, {
        env: { ...process.env, ...adminEnv, DATABASE_URL: url, DATA_DIR: ':memory:', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' },
        bus,
        port: 0,
      });
      extra.push(replica);
      return replica;
    },
    async stop() {
      for (const s of [...extra, admin, billing]) await s.stop();
      await auth.close();
      await bus.close();
    },
  };
}
