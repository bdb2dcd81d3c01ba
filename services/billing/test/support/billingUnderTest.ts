import crypto from 'node:crypto';
import type { RunningService } from '@leadforge/kit/service';
import { createMemoryBus } from '@leadforge/kit/events';
import { startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import { TOPICS } from '@leadforge/contracts';
import billingService from '../../src/index.ts';
import { startAuthStandIn, type AuthStandIn } from './authStandIn.ts';

export interface JsonAnswer<T = any> {
  status: number;
  body: T;
}

/**
 * Billing on its own database (PGlite or a fresh Postgres database), with auth's keys from a
 * stand-in and an in-process bus the test publishes `user.registered` on.
 */
export async function startBillingForTest(kind: TestDatabaseKind, env: NodeJS.ProcessEnv = {}) {
  const auth: AuthStandIn = await startAuthStandIn();
  const bus = createMemoryBus({ retryMs: 5 });
  const svc: RunningService = await startServiceForTest(billingService, {
    kind,
    bus,
    env: {
      AUTH_URL: auth.url,
      PAYPAL_CLIENT_ID: '',
      PAYPAL_CLIENT_SECRET: '',
      PAYPAL_LIVE_CLIENT_ID: '',
      PAYPAL_LIVE_CLIENT_SECRET: '',
      BILLING_ORDERS_PER_USER_PER_HOUR: '1000',
      BILLING_PROMO_ORDERS_PER_IP_PER_HOUR: '1000',
      ...env,
    },
  });
  const internal = { 'x-internal-token': svc.ctx.config.internalToken };

  async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer<T>> {
    const res = await fetch(`${svc.url}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch { /* keep the text */ }
    return { status: res.status, body: parsed as T };
  }

  /** What auth publishes when an account is created; resolves once billing has handled it. */
  async function registered(userId: string, extra: { promo_code?: string; order_id?: string; promo_claim_hash?: string } = {}) {
    await bus.publish([{
      topic: TOPICS.authUser,
      key: userId,
      envelope: {
        id: crypto.randomUUID(),
        type: 'user.registered',
        version: 1,
        occurred_at: new Date().toISOString(),
        key: userId,
        data: { user_id: userId, name: 'Test User', email: `${userId.slice(0, 8)}@example.com`, role: 'user', status: 'active', created_at: new Date().toISOString(), ...extra },
      },
    }]);
  }

  /** A signed-in user who has received the signup grant. */
  async function newUser(role: 'user' | 'admin' = 'user') {
    const user = auth.user(role);
    await registered(user.id);
    return user;
  }

  const balance = async (userId: string) => (await call('GET', `/internal/balances/${userId}`, undefined, internal)).body.balance as number;

  return {
    svc,
    auth,
    bus,
    db: svc.ctx.db,
    internal,
    call,
    registered,
    newUser,
    balance,
    async stop() {
      await svc.stop();
      await bus.close();
      await auth.close();
    },
  };
}

export type BillingUnderTest = Awaited<ReturnType<typeof startBillingForTest>>;
