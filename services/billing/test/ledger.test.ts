import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, waitFor, type TestDatabaseKind } from '@leadforge/testing';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`credit ledger on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let b: BillingUnderTest;
    const reserve = (userId: string, amount: number, key: string = crypto.randomUUID()) =>
      b.call('POST', '/internal/reservations', { user_id: userId, amount, ref: `search:${key}`, idempotency_key: key }, b.internal);
    const ledgerSum = async (userId: string) => Number((await b.db('credit_ledger').where({ user_id: userId }).sum({ s: 'delta' }))[0].s ?? 0);

    beforeAll(async () => { b = await startBillingForTest(kind); });
    afterAll(async () => b?.stop());

    it('grants 10 signup credits once, however often the event is delivered', async () => {
      const user = b.auth.user();
      await b.registered(user.id);
      await b.registered(user.id);
      expect(await b.balance(user.id)).toBe(10);
      const entries = await b.db('credit_ledger').where({ user_id: user.id });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ delta: 10, reason: 'signup', ref: `user:${user.id}`, idempotency_key: `signup:${user.id}` });
      const announced = await b.db('kit_outbox').whereRaw("envelope->>'type' = 'credits.changed'").andWhereRaw("envelope->'data'->>'user_id' = ?", [user.id]);
      expect(announced.map((r) => r.envelope.data)).toEqual([{ user_id: user.id, delta: 10, balance: 10, reason: 'signup', ref: `user:${user.id}` }]);
    });

    it('answers a brand-new account with its signup grant even when the event lands just after the question', async () => {
      const user = b.auth.user();
      // The question has looked for the balance and found none: the event lands while it waits.
      let looked = false;
      const lookedFor = (_response: unknown, query: { sql: string; bindings?: unknown[] }) => {
        if (query.sql.includes('credit_balances') && query.bindings?.includes(user.id)) looked = true;
      };
      b.db.on('query-response', lookedFor);
      try {
        const asked = b.balance(user.id);
        await waitFor(() => looked, { intervalMs: 5, what: 'the balance question to look for the account' });
        await b.registered(user.id);
        expect(await asked).toBe(10);
      } finally {
        b.db.off('query-response', lookedFor);
      }
    });

    it('lets the database itself refuse a negative balance, a direct balance write and a ledger rewrite', async () => {
      const user = await b.newUser();
      await expect(b.db('credit_ledger').insert({ user_id: user.id, delta: -11, balance_after: 0, reason: 'admin', ref: 'test', idempotency_key: crypto.randomUUID() }))
        .rejects.toMatchObject({ code: '23514' });
      await expect(b.db('credit_ledger').insert({ user_id: user.id, delta: -3, balance_after: 9, reason: 'admin', ref: 'test', idempotency_key: crypto.randomUUID() }))
        .rejects.toMatchObject({ code: '40001' });
      await expect(b.db('credit_balances').where({ user_id: user.id }).update({ balance: 1000 })).rejects.toThrow(/only through credit_ledger/);
      await expect(b.db('credit_ledger').where({ user_id: user.id }).update({ delta: 1000 })).rejects.toThrow(/append-only/);
      await expect(b.db('credit_ledger').where({ user_id: user.id }).delete()).rejects.toThrow(/append-only/);
      expect(await b.balance(user.id)).toBe(10);
    });

    it('100 concurrent reservations against 10 credits: exactly 10 succeed, every other one gets the 402 detail', async () => {
      const user = await b.newUser();
      const answers = await Promise.all(Array.from({ length: 100 }, () => reserve(user.id, 1)));
      const held = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status !== 201);
      expect(held).toHaveLength(10);
      expect(refused.every((a) => a.status === 402 && a.body.detail === 'Insufficient credits. You have 0 credits but need 1.')).toBe(true);
      expect(new Set(held.map((a) => a.body.balance))).toEqual(new Set([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]));
      expect(await b.balance(user.id)).toBe(0);
      expect(await ledgerSum(user.id)).toBe(0);
    });

    it('mixed-size concurrent reservations never take more than there is, and each refusal names what was short', async () => {
      const user = await b.newUser();
      const sizes = Array.from({ length: 100 }, (_, i) => 1 + (i % 4));
      const answers = await Promise.all(sizes.map((n) => reserve(user.id, n)));
      const taken = answers.filter((a) => a.status === 201).reduce((sum, a) => sum + a.body.amount, 0);
      expect(taken).toBeLessThanOrEqual(10);
      expect(await b.balance(user.id)).toBe(10 - taken);
      for (const [i, a] of answers.entries()) {
        if (a.status === 201) continue;
        expect(a.status).toBe(402);
        const [, have, need] = a.body.detail.match(/^Insufficient credits\. You have (\d+) credits but need (\d+)\.$/)!.map(Number);
        expect(need).toBe(sizes[i]);
        expect(have).toBeLessThan(need);
      }
      expect(await ledgerSum(user.id)).toBe(10 - taken);
    });

    it('reserves once per idempotency key', async () => {
      const user = await b.newUser();
      const first = await reserve(user.id, 4, 'search-key-1');
      const again = await reserve(user.id, 4, 'search-key-1');
      expect(first.status).toBe(201);
      expect(again.status).toBe(200);
      expect(again.body.reservation_id).toBe(first.body.reservation_id);
      expect(await b.balance(user.id)).toBe(6);
      const reused = await reserve(user.id, 5, 'search-key-1');
      expect(reused).toMatchObject({ status: 409, body: { detail: 'This idempotency_key was already used for a different reservation' } });
    });

    it('settles the delivered count, releases the rest, and treats a repeat as the same answer', async () => {
      const user = await b.newUser();
      const { body: r } = await reserve(user.id, 8);
      expect(r).toMatchObject({ status: 'held', amount: 8, balance: 2 });
      const settle = (charge: number) => b.call('POST', `/internal/reservations/${r.reservation_id}/settle`, { charge }, b.internal);
      expect(await settle(9)).toMatchObject({ status: 400, body: { detail: 'charge (9) cannot exceed the reserved amount (8)' } });
      const settled = await settle(5);
      expect(settled.body).toMatchObject({ status: 'settled', charged: 5, balance: 5 });
      expect((await settle(5)).body).toMatchObject({ status: 'settled', charged: 5, balance: 5 });
      expect(await settle(4)).toMatchObject({ status: 409, body: { detail: 'This reservation is already settled' } });
      expect((await b.call('POST', `/internal/reservations/${r.reservation_id}/release`, undefined, b.internal)).status).toBe(409);
      expect(await b.balance(user.id)).toBe(5);
      const reasons = (await b.db('credit_ledger').where({ user_id: user.id }).orderBy('id')).map((e) => [e.reason, e.delta]);
      expect(reasons).toEqual([['signup', 10], ['generation', -8], ['generation_refund', 3]]);
    });

    it('releases a failed job completely, once', async () => {
      const user = await b.newUser();
      const { body: r } = await reserve(user.id, 10);
      const release = () => b.call('POST', `/internal/reservations/${r.reservation_id}/release`, undefined, b.internal);
      expect((await release()).body).toMatchObject({ status: 'released', charged: 0, balance: 10 });
      expect((await release()).body).toMatchObject({ status: 'released', balance: 10 });
      expect(await b.balance(user.id)).toBe(10);
    });

    it('answers unknown or malformed reservation ids with 404 and 400', async () => {
      expect((await b.call('POST', `/internal/reservations/${crypto.randomUUID()}/release`, undefined, b.internal)).status).toBe(404);
      expect(await b.call('POST', '/internal/reservations/not-a-uuid/release', undefined, b.internal)).toMatchObject({ status: 400, body: { detail: 'reservation id must be a UUID' } });
    });

    it('adjusts credits for an admin: signed, idempotent, never below zero', async () => {
      const user = await b.newUser();
      const adjust = (delta: number, key: string) => b.call('POST', '/internal/credits/adjust', { user_id: user.id, delta, actor_id: 'admin-1', reason: 'support', idempotency_key: key }, b.internal);
      expect((await adjust(25, 'a1')).body).toMatchObject({ delta: 25, balance: 35 });
      expect((await adjust(25, 'a1')).body).toMatchObject({ delta: 25, balance: 35 });
      expect((await adjust(-5, 'a2')).body).toMatchObject({ delta: -5, balance: 30 });
      expect(await adjust(-31, 'a3')).toMatchObject({ status: 400, body: { detail: 'Cannot remove 31 credits: the user has only 30. A balance never goes below zero.' } });
      expect(await adjust(0, 'a4')).toMatchObject({ status: 400, body: { detail: 'Enter a non-zero number of credits to add or remove' } });
      expect(await b.balance(user.id)).toBe(30);
      const entry = await b.db('credit_ledger').where({ idempotency_key: 'admin:a2' }).first();
      expect(entry).toMatchObject({ reason: 'admin', actor_id: 'admin-1', note: 'support', ref: 'admin:admin-1' });
    });

    it('keeps /internal routes for holders of the service token', async () => {
      const user = await b.newUser();
      expect((await b.call('GET', `/internal/balances/${user.id}`)).status).toBe(403);
      expect((await b.call('POST', '/internal/reservations', { user_id: user.id, amount: 1, ref: 'x', idempotency_key: 'y' })).status).toBe(403);
    });
  });
}
