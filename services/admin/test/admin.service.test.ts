import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '@leadforge/contracts';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { bearer, callerFor, ROOT_EMAIL, startAdminHarness, type AdminHarness } from './adminHarness.ts';
import { publishEvent } from './busEvents.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const MISSING_USER = '00000000-0000-7000-8000-000000000000';
/** The read models catch up with the bus asynchronously: a check is retried until it passes. */
const CATCH_UP = { timeout: 5000, interval: 25 };

/** The stats without the moment they were computed at. */
const figures = (body: { stats: { usage: { total_leads_generated: number; total_scrapes: number }; users: object; credits: object }; users: object; contact_submissions: object; users_page: object; contact_submissions_page: object }) => ({
  stats: body.stats, users: body.users, users_page: body.users_page, contact_submissions: body.contact_submissions, contact_submissions_page: body.contact_submissions_page,
});

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`admin service on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let h: AdminHarness;
    let root: { id: string; token: string };
    let ada: { id: string; token: string };

    beforeAll(async () => {
      h = await startAdminHarness(kind);
      root = await h.register('Root Admin', ROOT_EMAIL);
      ada = await h.register('Ada Lovelace', 'ada@example.com');
    });
    afterAll(async () => h?.stop());

    const asRoot = () => bearer(root.token);
    const stats = async (query = '') => {
      const res = await h.call('GET', `/api/admin/enhanced-stats${query}`, undefined, asRoot());
      expect(res.status).toBe(200);
      return res.body;
    };

    it('refuses every admin route of the route table without a token (401) and for a user (403), directly at the service', async () => {
      const own = ROUTES.filter((r) => r.service === 'admin');
      expect(own.length).toBe(7);
      for (const route of own) {
        const body = route.method === 'POST' ? { user_id: ada.id, credits_change: 1 } : undefined;
        expect({ route: route.path, status: (await h.call(route.method, route.path, body)).status }).toEqual({ route: route.path, status: 401 });
        expect({ route: route.path, status: (await h.call(route.method, route.path, body, bearer(ada.token))).status }).toEqual({ route: route.path, status: 403 });
      }
      expect((await h.call('GET', '/api/admin/enhanced-stats', undefined, bearer('a.b.c'))).status).toBe(401);
    });

    it('builds users from auth events and balances from billing events', async () => {
      const body = await vi.waitFor(async () => {
        const b = await stats();
        expect(b.stats.credits.total_in_system).toBe(20);
        return b;
      }, CATCH_UP);
      expect(body.stats.users).toEqual({ total: 2, admins: 1, inactive: 0 });
      expect(body.stats.recent_users.map((u: { email: string }) => u.email)).toEqual(['ada@example.com', ROOT_EMAIL]);
      expect(body.users[0]).toMatchObject({ id: ada.id, name: 'Ada Lovelace', email: 'ada@example.com', role: 'user', status: 'active', credits: 10 });
      expect(body.users_page).toEqual({ page: 1, page_size: 50, total: 2 });
      expect(body.stats.daily).toHaveLength(30);
      expect(body.stats.daily.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), signups: 2 });
    });

    it('shows a purchase, a search and a contact submission in the stats and the activity log', async () => {
      const completedAt = new Date().toISOString();
      await publishEvent(h.bus, 'purchase.completed', ada.id, {
        purchase_id: 'pur-1', user_id: ada.id, plan_id: 'growth', amount: 49, currency: 'USD', credits: 330, completed_at: completedAt,
      });
      await publishEvent(h.bus, 'search.completed', 'search-1', {
        search_id: 'search-1', user_id: ada.id, results_count: 7, credits_used: 7, industry: 'Dentists', location: 'Lindenfeld', status: 'completed', reason: null, timestamp: new Date().toISOString(),
      });
      await publishEvent(h.bus, 'contact.submitted', 'contact-1', {
        submission_id: 'contact-1', name: 'Grace', email: 'grace@example.com', message: 'Do you cover Lisbon?', submitted_at: new Date().toISOString(),
      });
      const body = await stats();
      expect(body.stats.revenue).toEqual({ total: 49, purchases: 1, refunded: 0 });
      expect(body.stats.usage).toEqual({ total_leads_generated: 7, total_scrapes: 1 });
      expect(body.stats.recent_purchases[0]).toMatchObject({ id: 'pur-1', plan_id: 'growth', amount: 49, credits: 330, user_name: 'Ada Lovelace', completed_at: completedAt });
      expect(body.stats.daily.at(-1)).toMatchObject({ revenue: 49, leads: 7, searches: 1, credits_used: 7 });
      expect(body.contact_submissions).toEqual([expect.objectContaining({ id: 'contact-1', name: 'Grace', email: 'grace@example.com', message: 'Do you cover Lisbon?' })]);

      const logs = await h.call('GET', '/api/admin/activity-logs', undefined, asRoot());
      expect(logs.status).toBe(200);
      expect(logs.body.total).toBe(2);
      expect(logs.body.logs.map((l: { type: string }) => l.type)).toEqual(['scrape', 'payment']);
      expect(logs.body.logs[0]).toMatchObject({ user_id: ada.id, details: { results_count: 7, credits_used: 7 } });
      expect(logs.body.logs[1]).toMatchObject({ user_id: ada.id, details: { amount: 49, credits: 330 } });
    });

    it('nets refunds out of revenue and lists them as activity', async () => {
      await publishEvent(h.bus, 'purchase.completed', ada.id, {
        purchase_id: 'pur-2', user_id: ada.id, plan_id: 'starter', amount: 19, currency: 'USD', credits: 100, completed_at: new Date().toISOString(),
      });
      await publishEvent(h.bus, 'purchase.refunded', ada.id, {
        purchase_id: 'pur-2', user_id: ada.id, amount: 19, credits_reversed: 100, refunded_at: new Date().toISOString(),
      });
      const body = await stats('?include=stats');
      expect(body.stats.revenue).toEqual({ total: 49, purchases: 2, refunded: 19 });
      expect(body.users).toBeUndefined();
      const refunds = await h.call('GET', '/api/admin/activity-logs?type=refund', undefined, asRoot());
      expect(refunds.body).toMatchObject({ total: 1, logs: [{ type: 'refund', details: { amount: 19, credits: 100, purchase_id: 'pur-2' } }] });
    });

    it('shows one user: searches and purchases from the read models; a section whose owner cannot answer is null, and says why', async () => {
      const res = await h.call('GET', `/api/admin/users/${ada.id}`, undefined, asRoot());
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: ada.id, name: 'Ada Lovelace', email: 'ada@example.com' });
      expect(res.body.searches).toEqual([{ search_id: 'search-1', industry: 'Dentists', location: 'Lindenfeld', results_count: 7, credits_used: 7, completed_at: expect.any(String) }]);
      expect(res.body.purchases.map((p: { id: string }) => p.id)).toEqual(['pur-2', 'pur-1']);
      expect(res.body.purchases[0]).toMatchObject({ plan_id: 'starter', amount: 19, credits: 100, refunded_amount: 19 });
      expect(res.body.purchases[0].refunded_at).toEqual(expect.any(String));
      expect(res.body.purchases[1]).toMatchObject({ refunded_amount: 0, refunded_at: null });
      // The stand-ins serve neither billing's account data nor auth's key list: those two sections say so.
      expect(res.body.ledger).toBeNull();
      expect(res.body.api_keys).toBeNull();
      expect(res.body.unavailable.map((line: string) => line.split(':')[0]).sort()).toEqual(['API keys', 'Credit ledger']);
      expect((await h.call('GET', `/api/admin/users/${MISSING_USER}`, undefined, asRoot())).body).toMatchObject({ detail: 'User not found' });
      expect((await h.call('GET', `/api/admin/users/${ada.id}`, undefined, bearer(ada.token))).status).toBe(403);
    });

    it('keeps test-checkout money apart from revenue: counted as test, marked on the purchase, its refund netted from the test figure only', async () => {
      await publishEvent(h.bus, 'purchase.completed', ada.id, {
        purchase_id: 'pur-test-1', user_id: ada.id, plan_id: 'growth', amount: 49, currency: 'USD', credits: 330, completed_at: new Date().toISOString(), test: true,
      });
      await vi.waitFor(async () => expect((await stats('?include=stats')).stats.test_checkout).toEqual({ total: 49, purchases: 1 }), CATCH_UP);
      const body = await stats('?include=stats');
      expect(body.stats.revenue).toEqual({ total: 49, purchases: 2, refunded: 19 });
      expect(body.stats.daily.at(-1)).toMatchObject({ revenue: 49 });
      expect(body.stats.recent_purchases[0]).toMatchObject({ id: 'pur-test-1', amount: 49, test: true });
      expect(body.stats.recent_purchases.slice(1).every((p: { test: boolean }) => p.test === false)).toBe(true);

      await publishEvent(h.bus, 'purchase.refunded', ada.id, {
        purchase_id: 'pur-test-1', user_id: ada.id, amount: 19, credits_reversed: 100, refunded_at: new Date().toISOString(),
      });
      await vi.waitFor(async () => expect((await stats('?include=stats')).stats.test_checkout).toEqual({ total: 30, purchases: 1 }), CATCH_UP);
      expect((await stats('?include=stats')).stats.revenue).toEqual({ total: 49, purchases: 2, refunded: 19 });
      const user = await h.call('GET', `/api/admin/users/${ada.id}`, undefined, asRoot());
      expect(user.body.purchases.map((p: { id: string; test: boolean }) => [p.id, p.test])).toEqual([['pur-test-1', true], ['pur-2', false], ['pur-1', false]]);
    });

    it('adjusts credits through billing, and the read model shows the new balance at once', async () => {
      const add = await h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 10 }, asRoot());
      expect(add).toEqual({ status: 200, body: { message: 'Added 10 credits to Ada Lovelace. New balance: 20.', user: { id: ada.id, credits: 20 } } });
      expect((await stats('?include=users&search=ada')).users[0].credits).toBe(20);
      const remove = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: -10 }, asRoot());
      expect(remove.body.message).toBe('Removed 10 credits from Ada Lovelace. New balance: 10.');
      const viaNamedAction = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: 'credits', credits_change: 5 }, asRoot());
      expect(viaNamedAction.body.user.credits).toBe(15);
      const viaText = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: '-5' }, asRoot());
      expect(viaText.body.user.credits).toBe(10);
    });

    it('never takes a balance below zero, even under concurrent removals', async () => {
      const tooMuch = await h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: -11 }, asRoot());
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body.detail).toBe('Cannot remove 11 credits: the user has only 10. A balance never goes below zero.');
      await h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 15 }, asRoot());
      const removals = await Promise.all(Array.from({ length: 6 }, () => h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: -10 }, asRoot())));
      expect(removals.filter((r) => r.status === 200)).toHaveLength(2);
      expect(removals.filter((r) => r.status === 400)).toHaveLength(4);
      const balance = await callerFor(h.billing.url)('GET', `/internal/balances/${ada.id}`, undefined, { 'x-internal-token': h.admin.ctx.config.internalToken });
      expect(balance.body.balance).toBe(5);
      await vi.waitFor(async () => expect((await stats('?include=users&search=ada')).users[0].credits).toBe(5), CATCH_UP);
      await h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 5 }, asRoot());
    });

    it('applies one credit change once when the same Idempotency-Key is sent twice', async () => {
      const headers = { ...asRoot(), 'idempotency-key': `double-click-${kind}` };
      const [first, second] = await Promise.all([
        h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 3 }, headers),
        h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 3 }, headers),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 3 }, headers);
      expect(third.body.user.credits).toBe(13);
      await h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: -3 }, asRoot());
    });

    it('answers bad admin input with 400 and a detail', async () => {
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/admin/update-credits', { credits_change: 10 }, 'Please select a user and enter credit amount'],
        ['POST', '/api/admin/update-credits', { user_id: ada.id }, 'Please select a user and enter credit amount'],
        ['POST', '/api/admin/update-credits', { user_id: '', credits_change: 10 }, 'Please select a user and enter credit amount'],
        ['POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 0 }, 'Please enter a credit amount other than zero'],
        ['POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 1.5 }, 'credits_change must be a whole number'],
        ['POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 'lots' }, 'credits_change must be a whole number'],
        ['POST', '/api/admin/user-action', { user_id: ada.id, action: 'explode' }, 'action must be promote, demote, deactivate, activate, credits or a signed credit amount'],
        ['POST', '/api/admin/user-action', { user_id: ada.id, action: 'credits' }, 'Please select a user and enter credit amount'],
        ['POST', '/api/admin/user-action', { user_id: ada.id }, 'action is required'],
        ['POST', '/api/admin/user-action', '{"user_id": ', 'Request body is not valid JSON'],
        ['GET', '/api/admin/enhanced-stats?role=owner', undefined, 'role must be all, user or admin'],
        ['GET', '/api/admin/enhanced-stats?users_page=0', undefined, 'users_page must be >= 1'],
        ['GET', '/api/admin/enhanced-stats?include=everything', undefined, 'include must list stats, users or contact_submissions, separated by commas'],
        ['GET', '/api/admin/activity-logs?cursor=nonsense', undefined, 'cursor is invalid; reload the activity list from the first page'],
        ['GET', '/api/admin/activity-logs?type=login', undefined, 'type must be scrape, payment, refund or admin_action'],
        ['GET', '/api/admin/activity-logs?limit=1000', undefined, 'limit must be <= 200'],
      ];
      for (const [method, path, body, detail] of cases) {
        const res = await h.call(method, path, body, asRoot());
        expect({ path, body, status: res.status, detail: res.body.detail }).toEqual({ path, body, status: 400, detail });
      }
    });

    it('answers an action on a missing or deleted user with 404 User not found', async () => {
      const actions: unknown[] = [
        { path: '/api/admin/update-credits', body: { user_id: MISSING_USER, credits_change: 10 } },
        ...['promote', 'demote', 'deactivate', 'activate', 5].map((action) => ({ path: '/api/admin/user-action', body: { user_id: MISSING_USER, action } })),
        { path: '/api/admin/user-action', body: { user_id: 'not-a-uuid', action: 'promote' } },
      ];
      for (const { path, body } of actions as { path: string; body: object }[]) {
        const res = await h.call('POST', path, body, asRoot());
        expect({ body, status: res.status, detail: res.body.detail }).toEqual({ body, status: 404, detail: 'User not found' });
      }
      const gone = await h.register('Gone Away', 'gone@example.com');
      await callerFor(h.auth.url)('POST', `/internal/users/${gone.id}/status`, { status: 'deleted' }, { 'x-internal-token': h.admin.ctx.config.internalToken });
      const onDeleted = await h.call('POST', '/api/admin/user-action', { user_id: gone.id, action: 'activate' }, asRoot());
      expect(onDeleted).toMatchObject({ status: 404, body: { detail: 'User not found' } });
      await vi.waitFor(async () => {
        const body = await stats('?include=stats,users');
        expect(body.users.map((u: { id: string }) => u.id)).not.toContain(gone.id);
        expect(body.stats.users.total).toBe(2);
      }, CATCH_UP);
      // The read model keeps no name or address of a deleted account.
      expect(await h.admin.ctx.db('rm_users').where({ user_id: gone.id }).first('name', 'email', 'status')).toEqual({ name: null, email: null, status: 'deleted' });
    });

    it('refuses self-demotion and self-deactivation on the server', async () => {
      const demote = await h.call('POST', '/api/admin/user-action', { user_id: root.id, action: 'demote' }, asRoot());
      expect(demote).toMatchObject({ status: 400, body: { detail: 'You cannot demote your own account' } });
      const deactivate = await h.call('POST', '/api/admin/user-action', { user_id: root.id, action: 'deactivate' }, asRoot());
      expect(deactivate).toMatchObject({ status: 400, body: { detail: 'You cannot deactivate your own account' } });
      expect((await stats('?include=stats')).stats.users.admins).toBe(1);
    });

    it('promotes, demotes, deactivates and reactivates; a demoted admin loses admin access at once', async () => {
      const promote = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: 'promote' }, asRoot());
      expect(promote).toEqual({ status: 200, body: { message: 'Ada Lovelace is now an admin.', user: { id: ada.id, role: 'admin', status: 'active' } } });
      expect((await stats('?include=stats')).stats.users.admins).toBe(2);
      // Ada's token was issued while she was a user; the service trusts her current role, not the token's.
      expect((await h.call('GET', '/api/admin/enhanced-stats?include=stats', undefined, bearer(ada.token))).status).toBe(200);
      const again = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: 'promote' }, asRoot());
      expect(again.body.message).toBe('Ada Lovelace is already an admin.');

      const demote = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: 'demote' }, asRoot());
      expect(demote.body.message).toBe('Ada Lovelace is now a regular user.');
      expect((await h.call('GET', '/api/admin/enhanced-stats?include=stats', undefined, bearer(ada.token))).status).toBe(403);
      expect((await h.call('POST', '/api/admin/update-credits', { user_id: ada.id, credits_change: 100 }, bearer(ada.token))).status).toBe(403);

      const deactivate = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: 'deactivate' }, asRoot());
      expect(deactivate.body.message).toBe('Ada Lovelace has been deactivated.');
      const listed = await stats('?include=stats,users&search=ADA');
      expect(listed.users[0]).toMatchObject({ id: ada.id, status: 'inactive' });
      expect(listed.stats.users.inactive).toBe(1);
      const activate = await h.call('POST', '/api/admin/user-action', { user_id: ada.id, action: 'activate' }, asRoot());
      expect(activate.body).toMatchObject({ message: 'Ada Lovelace has been reactivated.', user: { status: 'active' } });
    });

    it('keeps an append-only audit log of admin actions and announces each as admin.action', async () => {
      const announced: unknown[] = [];
      const subscription = await h.bus.subscribe({ group: `audit-watch-${kind}`, topics: ['admin.action'], handler: async (m) => { announced.push(m.envelope.data); } });
      const res = await h.call('GET', '/api/admin/activity-logs?type=admin_action&limit=200', undefined, asRoot());
      expect(res.status).toBe(200);
      const entries = res.body.logs as { user_id: string; details: Record<string, string> }[];
      expect(entries.every((e) => e.user_id === root.id)).toBe(true);
      expect(entries.find((e) => e.details.detail === 'Ada Lovelace is now an admin.')).toMatchObject({ details: { action: 'user.promote', result: 'ok', target_id: ada.id, actor_email: ROOT_EMAIL } });
      expect(entries.find((e) => e.details.action === 'user.demote' && e.details.target_id === root.id)).toMatchObject({ details: { result: 'refused', detail: 'You cannot demote your own account' } });
      expect(entries.find((e) => e.details.target_id === MISSING_USER)).toMatchObject({ details: { result: 'refused', detail: 'User not found' } });
      await vi.waitFor(async () => expect(announced.length).toBe(res.body.total), CATCH_UP);
      expect(announced).toContainEqual(expect.objectContaining({ actor_id: root.id, action: 'user.promote', target_id: ada.id, result: 'ok' }));
      await subscription.close();
      await expect(h.admin.ctx.db('admin_audit_log').update({ detail: 'rewritten' })).rejects.toThrow(/append-only/);
      await expect(h.admin.ctx.db('admin_audit_log').delete()).rejects.toThrow(/append-only/);
    });

    it('filters and pages users on the server', async () => {
      for (let i = 0; i < 7; i++) await h.register(`Pager ${i}`, `pager${i}@example.org`);
      await vi.waitFor(async () => expect((await stats('?include=users&search=pager')).users_page.total).toBe(7), CATCH_UP);
      const first = await stats('?include=users&search=PAGER&users_page_size=3');
      const third = await stats('?include=users&search=pager&users_page_size=3&users_page=3');
      expect(first.users.map((u: { name: string }) => u.name)).toEqual(['Pager 6', 'Pager 5', 'Pager 4']);
      expect(third.users.map((u: { name: string }) => u.name)).toEqual(['Pager 0']);
      expect((await stats('?include=users&search=example.org&role=admin')).users).toEqual([]);
      expect((await stats('?include=users&role=admin')).users.map((u: { email: string }) => u.email)).toEqual([ROOT_EMAIL]);
      expect((await stats('?include=users&search=%25')).users_page.total).toBe(0);
      expect((await stats('?include=users&search=_')).users_page.total).toBe(0);
    });

    it('pages contact submissions and the activity log without gaps or repeats', async () => {
      for (let i = 0; i < 25; i++) {
        await publishEvent(h.bus, 'contact.submitted', `bulk-contact-${i}`, {
          submission_id: `bulk-contact-${i}`, name: `Sender ${i}`, email: `s${i}@example.com`, message: 'hello', submitted_at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
        });
      }
      const contacts = await stats('?include=contact_submissions&contacts_page=2&contacts_page_size=20');
      expect(contacts.contact_submissions_page).toEqual({ page: 2, page_size: 20, total: 26 });
      expect(contacts.contact_submissions).toHaveLength(6);
      expect(contacts.contact_submissions.at(-1).name).toBe('Sender 0');

      // Same timestamp for many entries: the cursor must still neither skip nor repeat any.
      const sameMoment = new Date(Date.UTC(2024, 5, 1)).toISOString();
      for (let i = 0; i < 30; i++) {
        await publishEvent(h.bus, 'search.completed', `bulk-search-${i}`, {
          search_id: `bulk-search-${i}`, user_id: ada.id, results_count: 1, credits_used: 1, status: 'completed', reason: null, timestamp: sameMoment,
        });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await h.call('GET', `/api/admin/activity-logs?type=scrape&limit=7${cursor ? `&cursor=${cursor}` : ''}`, undefined, asRoot());
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(31);
        seen.push(...res.body.logs.map((l: { details: { search_id: string } }) => l.details.search_id));
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(5);
      expect(seen).toHaveLength(31);
      expect(new Set(seen).size).toBe(31);
      expect(seen[0]).toBe('search-1');
    });

    it('lists every service\'s parked work, says which service did not answer, and replays through the owner', async () => {
      const eventId = crypto.randomUUID();
      const envelope = { id: eventId, type: 'credits.changed', version: 1, occurred_at: new Date().toISOString(), key: ada.id, data: {} };
      await h.billing.ctx.db('kit_outbox').insert({ event_id: eventId, topic: `parked-work-check-${kind}`, key: ada.id, envelope: JSON.stringify(envelope), parked_at: new Date(), last_error: 'the broker refused it' });
      const { seq } = await h.billing.ctx.db('kit_outbox').where({ event_id: eventId }).first('seq');

      const all = await h.call('GET', '/api/admin/parked-work', undefined, asRoot());
      expect(all.status).toBe(200);
      expect(all.body.items).toEqual([{
        service: 'billing', kind: 'outbox', name: 'outbox', key: String(seq), what: 'credits.changed', error: 'the broker refused it', attempts: null, parked_at: expect.any(String), replayable: true,
      }]);
      expect(all.body).toMatchObject({ page: 1, page_size: 25, total: 1 });
      const byService = Object.fromEntries(all.body.services.map((entry: { service: string }) => [entry.service, entry]));
      expect(byService.billing).toEqual({ service: 'billing', total: 1, queue: 0, outbox: 1, dead_letters: 0, error: null });
      expect(byService.admin).toEqual({ service: 'admin', total: 0, queue: 0, outbox: 0, dead_letters: 0, error: null });
      // The harness runs no leads service: it is reported, and the others still show.
      expect(byService.leads.error).toContain('The leads service is not configured');
      expect((await h.call('GET', '/api/admin/parked-work?kind=dead_letters', undefined, asRoot())).body).toMatchObject({ items: [], total: 0 });
      expect((await h.call('GET', '/api/admin/parked-work?service=mail', undefined, asRoot()))).toMatchObject({ status: 400, body: { detail: expect.stringContaining('service must be one of') } });

      const bad = await h.call('POST', '/api/admin/parked-work/replay', { service: 'billing', kind: 'queue', queue: 'nope' }, asRoot());
      expect(bad).toMatchObject({ status: 404, body: { detail: 'The billing service has no queue named nope' } });
      const replayed = await h.call('POST', '/api/admin/parked-work/replay', { service: 'billing', kind: 'outbox', keys: [String(seq)] }, asRoot());
      expect(replayed).toEqual({ status: 200, body: { replayed: 1, kept: [], message: '1 piece of work in billing\'s outbox will run again' } });
      // Billing's relay, woken by the replay, publishes it.
      await vi.waitFor(async () => expect((await h.billing.ctx.db('kit_outbox').where({ event_id: eventId }).first('published_at')).published_at).not.toBeNull(), CATCH_UP);
      expect((await h.call('GET', '/api/admin/parked-work?service=billing', undefined, asRoot())).body).toMatchObject({ items: [], total: 0 });
      expect(await h.admin.ctx.db('admin_audit_log').where({ action: 'parked_work.replay' }).orderBy('at').select('target_id', 'result', 'detail')).toEqual([
        { target_id: 'billing', result: 'refused', detail: 'The billing service has no queue named nope' },
        { target_id: 'billing', result: 'ok', detail: '1 piece of work in billing\'s outbox will run again' },
      ]);
    });

    it('gives the same stats when every event is replayed into an empty admin database, and after a rebuild', async () => {
      const before = figures(await stats('?users_page_size=200&contacts_page_size=200'));
      // The running totals agree with a full scan of the users.
      const db = h.admin.ctx.db;
      const scanned = await db('rm_users').first(
        db.raw("count(*) FILTER (WHERE created_at IS NOT NULL AND status <> 'deleted')::int AS total"),
        db.raw("count(*) FILTER (WHERE created_at IS NOT NULL AND status <> 'deleted' AND role = 'admin')::int AS admins"),
        db.raw("count(*) FILTER (WHERE created_at IS NOT NULL AND status = 'inactive')::int AS inactive"),
        // A deleted account's credits are forfeited: not in the system.
        db.raw("sum(credits) FILTER (WHERE status <> 'deleted')::int AS credits"),
      );
      expect(before.stats).toMatchObject({ users: { total: scanned.total, admins: scanned.admins, inactive: scanned.inactive }, credits: { total_in_system: scanned.credits } });
      const replica = await h.startAnotherAdmin();
      const callReplica = callerFor(replica.url);
      const replayed = await vi.waitFor(async () => {
        const res = await callReplica('GET', '/api/admin/enhanced-stats?users_page_size=200&contacts_page_size=200', undefined, asRoot());
        expect(figures(res.body)).toEqual(before);
        return res.body;
      }, CATCH_UP);
      expect(replayed.stats.usage.total_scrapes).toBe(31);
      const activityBefore = (await h.call('GET', '/api/admin/activity-logs?limit=200', undefined, asRoot())).body;
      const activityReplayed = (await callReplica('GET', '/api/admin/activity-logs?limit=200', undefined, asRoot())).body;
      expect(activityReplayed).toEqual(activityBefore);

      const internal = { 'x-internal-token': h.admin.ctx.config.internalToken };
      expect((await h.call('POST', '/internal/read-models/rebuild', undefined, asRoot())).status).toBe(403);
      const rebuilt = await h.call('POST', '/internal/read-models/rebuild', undefined, internal);
      expect(rebuilt.status).toBe(200);
      expect(rebuilt.body.consumer_group).toMatch(/^admin\.read-models\./);
      await vi.waitFor(async () => expect(figures(await stats('?users_page_size=200&contacts_page_size=200'))).toEqual(before), CATCH_UP);
      expect((await h.call('GET', '/api/admin/activity-logs?type=admin_action', undefined, asRoot())).body.total).toBeGreaterThan(0);
    });

    it.skipIf(kind !== 'postgres')('keeps a second replica from writing into rebuilt read models: it follows the new generation (Postgres: replicas share a database)', async () => {
      const replica = await h.startReplica();
      const before = figures(await stats('?users_page_size=200&contacts_page_size=200'));
      const internal = { 'x-internal-token': h.admin.ctx.config.internalToken };
      expect((await h.call('POST', '/internal/read-models/rebuild', undefined, internal)).status).toBe(200);
      // Events after the rebuild reach both replicas' consumers: each must be counted once.
      for (let i = 0; i < 6; i++) {
        await publishEvent(h.bus, 'search.completed', `after-rebuild-${i}`, {
          search_id: `after-rebuild-${i}`, user_id: ada.id, results_count: 2, credits_used: 2, status: 'completed', reason: null, timestamp: new Date().toISOString(),
        });
      }
      await vi.waitFor(async () => {
        const now = await stats('?include=stats');
        expect(now.stats.usage).toEqual({
          total_leads_generated: before.stats.usage.total_leads_generated + 12,
          total_scrapes: before.stats.usage.total_scrapes + 6,
        });
      }, { ...CATCH_UP, timeout: 15_000 });
      const fromReplica = await callerFor(replica.url)('GET', '/api/admin/enhanced-stats?include=stats', undefined, asRoot());
      expect(fromReplica.body.stats.usage.total_scrapes).toBe(before.stats.usage.total_scrapes + 6);
      // The old generation's consumer stopped: its refused events are not parked (no dead-letter alert per rebuild).
      expect(await h.admin.ctx.db('kit_dead_letters').select('event_id', 'error')).toEqual([]);
    }, 30_000);
  });
}
