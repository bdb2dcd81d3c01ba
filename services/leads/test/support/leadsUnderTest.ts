import { createMemoryBus } from '@leadforge/kit/events';
import { startServiceForTest, waitFor, type TestDatabaseKind } from '@leadforge/testing';
import type { RunningService } from '@leadforge/kit/service';
import type { Bus } from '@leadforge/kit/events';
import leadsService from '../../src/index.ts';
import { startEngineStandIn, type EngineStandIn, type engineLead } from './engineStandIn.ts';
import { startStandInAuth, type StandInAuth } from './standInAuth.ts';
import { startStandInBilling, type StandInBilling } from './standInBilling.ts';

export const INTERNAL_TOKEN = 'leads-service-test-internal-token';

/** What the leads service talks to: stand-ins for auth, billing and the engine, and the bus between them. */
export interface Surroundings {
  auth: StandInAuth;
  billing: StandInBilling;
  bus: Bus;
  engine: EngineStandIn;
  close(): Promise<void>;
}

export async function startSurroundings(): Promise<Surroundings> {
  const [auth, billing] = await Promise.all([startStandInAuth(), startStandInBilling(INTERNAL_TOKEN)]);
  const bus = createMemoryBus();
  const engine = await startEngineStandIn(bus);
  return {
    auth, billing, bus, engine,
    async close() {
      await engine.close();
      await bus.close();
      await Promise.all([auth.close(), billing.close()]);
    },
  };
}

export type Call = (method: string, path: string, body?: unknown, token?: string) => Promise<{ status: number; body: any; headers: Headers; text: string }>;

export function caller(baseUrl: () => string): Call {
  return async (method, path, body, token) => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { /* CSV or other text */ }
    return { status: res.status, body: parsed as any, headers: res.headers, text };
  };
}

/** Starts the leads service among the surroundings; `env` may point it at an existing database to restart on. */
export function startLeads(kind: TestDatabaseKind, around: Surroundings, env: NodeJS.ProcessEnv = {}): Promise<RunningService> {
  return startServiceForTest(leadsService, {
    kind,
    bus: around.bus,
    env: { AUTH_URL: around.auth.url, BILLING_URL: around.billing.url, INTERNAL_TOKEN, LEADS_STARTS_PER_MINUTE: '1000', ...env },
  });
}

export interface LeadsUnderTest extends Omit<Surroundings, 'close'> {
  svc: RunningService;
  call: Call;
  stop(): Promise<void>;
}

/** The leads service on a fresh database, with its surroundings. */
export async function startLeadsUnderTest(kind: TestDatabaseKind, env: NodeJS.ProcessEnv = {}): Promise<LeadsUnderTest> {
  const around = await startSurroundings();
  const svc = await startLeads(kind, around, env);
  return {
    ...around,
    svc,
    call: caller(() => svc.url),
    async stop() {
      await svc.stop();
      await around.close();
    },
  };
}

/**
 * A search of `user`'s (given a balance of 50 credits) whose engine delivers `leads` and finishes; answers
 * its id once the service has settled it.
 */
export async function completedSearch(t: LeadsUnderTest, user: string, leads: ReturnType<typeof engineLead>[]): Promise<string> {
  t.billing.setBalance(user, 50);
  const started = await t.call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 10 }, t.auth.tokenFor(user));
  if (started.status !== 201) throw new Error(`search start: ${started.status} ${JSON.stringify(started.body)}`);
  await t.engine.waitForRequest(started.body.id);
  if (leads.length) await t.engine.leads(started.body.id, leads);
  await t.engine.finish(started.body.id, 'done');
  await waitFor(async () => (await t.call('GET', `/api/lead-searches/${started.body.id}`, undefined, t.auth.tokenFor(user))).body.status, { until: (status) => status !== 'running', timeoutMs: 10_000, what: 'the search to settle' });
  return started.body.id as string;
}
