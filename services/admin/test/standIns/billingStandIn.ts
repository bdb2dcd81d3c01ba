import { Type } from 'typebox';
import type { Knex } from 'knex';
import { AdjustCreditsRequest, TOPICS } from '@leadforge/contracts';
import type { ServiceDefinition } from '@leadforge/kit/service';
import { emitEvent, startConsumer } from '@leadforge/kit/events';
import { badRequest, internalGuard } from '@leadforge/kit/http';

/**
 * A small stand-in for the billing service in admin's service tests: billing's internal routes as
 * `packages/contracts/src/internal/billing.ts` defines them (adjust, balance), its signup grant, and
 * its `credits.changed` events through a real outbox. The system test runs against the real billing.
 */
export const SIGNUP_CREDITS = 10;

async function applyDelta(trx: Knex.Transaction, userId: string, delta: number, reason: string, ref: string): Promise<number> {
  await trx('standin_balances').insert({ user_id: userId, balance: 0 }).onConflict('user_id').ignore();
  const row = await trx('standin_balances').where({ user_id: userId }).forUpdate().first();
  const balance = row.balance + delta;
  if (balance < 0) throw badRequest(`Cannot remove ${-delta} credits: the user has only ${row.balance}. A balance never goes below zero.`, 'balance_would_go_negative');
  await trx('standin_balances').where({ user_id: userId }).update({ balance });
  await emitEvent(trx, 'credits.changed', userId, { user_id: userId, delta, balance, reason, ref });
  return balance;
}

export const billingStandIn: ServiceDefinition = {
  name: 'billing',
  migrationsDir: new URL('./billingMigrations', import.meta.url).pathname,

  async routes(app, ctx) {
    const guard = internalGuard(ctx.config.internalToken);

    app.post('/internal/credits/adjust', { schema: { body: AdjustCreditsRequest }, preHandler: guard }, async (request) => {
      const body = request.body as { user_id: string; delta: number; actor_id: string; idempotency_key: string };
      const answer = await ctx.db.transaction(async (trx) => {
        // Claiming the key first makes a concurrent request with the same key wait for this one.
        const claimed = await trx('standin_adjustments')
          .insert({ idempotency_key: body.idempotency_key, user_id: body.user_id, delta: body.delta, balance: 0 })
          .onConflict('idempotency_key').ignore().returning('idempotency_key');
        if (!claimed.length) {
          const done = await trx('standin_adjustments').where({ idempotency_key: body.idempotency_key }).first();
          return { user_id: done.user_id, balance: done.balance };
        }
        const balance = await applyDelta(trx, body.user_id, body.delta, 'admin', `admin:${body.actor_id}`);
        await trx('standin_adjustments').where({ idempotency_key: body.idempotency_key }).update({ balance });
        return { user_id: body.user_id, balance };
      });
      ctx.relay.wake();
      return answer;
    });

    app.get('/internal/balances/:userId', { schema: { params: Type.Object({ userId: Type.String() }) }, preHandler: guard }, async (request) => {
      const { userId } = request.params as { userId: string };
      const row = await ctx.db('standin_balances').where({ user_id: userId }).first();
      return { user_id: userId, balance: row?.balance ?? 0 };
    });
  },

  async start(ctx) {
    const subscription = await startConsumer({
      db: ctx.db,
      bus: ctx.bus,
      service: 'billing',
      group: 'billing-standin.signup',
      topics: [TOPICS.authUser],
      logger: ctx.log,
      handlers: {
        'user.registered': async (data, _envelope, trx) => { await applyDelta(trx, data.user_id, SIGNUP_CREDITS, 'signup', `signup:${data.user_id}`); },
      },
    });
    return () => subscription.close();
  },
};
