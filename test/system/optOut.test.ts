import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

const PER_HOUR = 12;
const ADMIN = { name: 'Opt Admin', email: 'opt-admin@example.com', password: 'secret123' };

describe('opt-out through the gateway: the public request, the administrators\' decisions', () => {
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let adminToken = '';
  let userToken = '';
  let posts = 0;
  const optOut = (body: unknown) => {
    posts += 1;
    return api('POST', '/api/opt-out', body);
  };

  beforeAll(async () => {
    stack = await startLocalStack({ env: { ADMIN_EMAILS: ADMIN.email, LEADS_OPT_OUTS_PER_HOUR: String(PER_HOUR) } });
    api = apiClient(stack.url);
    adminToken = (await registerAdmin(api, stack.dataDir, ADMIN)).token;
    userToken = (await api('POST', '/api/auth/register', { name: 'Plain', email: 'plain-opt@example.com', password: 'secret123' })).body.access_token;
  }, 240_000);
  afterAll(async () => stack?.stop());

  it('suppresses nothing on the request alone: the same reply for an email, a phone and a website, without signing in', async () => {
    const replies = [
      await optOut({ email: 'Owner@Bakery.example', reason: 'No more calls please' }),
      await optOut({ phone: '+44 20 7946 0958' }),
      await optOut({ website: 'https://shop.bakery.co.uk/about' }),
    ];
    for (const reply of replies) expect(reply).toMatchObject({ status: 202, body: { message: replies[0].body.message } });
  });

  it('answers bad input with a 4xx and a detail', async () => {
    expect(await optOut({})).toMatchObject({ status: 400, body: { detail: 'Please give an email address, a phone number or a website' } });
    expect(await optOut({ phone: '020 7946 0958' })).toMatchObject({ status: 400, body: { detail: 'Please give the phone number in international format, starting with + and the country code' } });
    expect(await optOut({ website: 'localhost' })).toMatchObject({ status: 400, body: { detail: 'Please give a website address such as example.com' } });
    expect(await optOut({ reason: 'x'.repeat(3000), email: 'a@b.example' })).toMatchObject({ status: 400, body: { detail: 'Reason is too long (at most 2,000 characters)' } });
  });

  it('lets only administrators list, preview and decide; a website covers its host, widened to its domain only by choice; lift ends it', async () => {
    expect((await api('GET', '/api/admin/opt-outs')).status).toBe(401);
    expect((await api('GET', '/api/admin/opt-outs', undefined, bearer(userToken))).status).toBe(403);
    const list = await api('GET', '/api/admin/opt-outs?q=bakery', undefined, bearer(adminToken));
    expect(list.status).toBe(200);
    const site = list.body.requests.find((r: { website: string | null }) => r.website);
    // The host asked for, not its parent: bakery.co.uk's other sites are not this owner's to remove.
    expect(site).toMatchObject({ domain: 'shop.bakery.co.uk', scope: 'host', widens_to: 'bakery.co.uk', status: 'pending' });
    // The email waits for its owner's confirmation: nothing suppressed yet.
    expect(list.body.requests.find((r: { email: string | null }) => r.email)).toMatchObject({ email: 'owner@bakery.example', status: 'unconfirmed' });
    expect(list.body.suppressed).toEqual([]);

    const preview = `/api/admin/opt-outs/${site.id}/preview`;
    expect((await api('GET', preview)).status).toBe(401);
    expect((await api('GET', preview, undefined, bearer(userToken))).status).toBe(403);
    expect(await api('GET', preview, undefined, bearer(adminToken))).toMatchObject({ status: 200, body: { scope: 'host', value: 'shop.bakery.co.uk', leads: 0, searches: 0, users: 0 } });
    expect(await api('GET', `${preview}?scope=domain`, undefined, bearer(adminToken))).toMatchObject({ status: 200, body: { scope: 'domain', value: 'bakery.co.uk' } });
    expect(await api('GET', `${preview}?scope=all`, undefined, bearer(adminToken))).toMatchObject({ status: 400, body: { detail: expect.any(String) } });

    expect((await api('POST', `/api/admin/opt-outs/${site.id}/approve`, undefined, bearer(userToken))).status).toBe(403);
    expect(await api('POST', `/api/admin/opt-outs/${site.id}/approve`, undefined, bearer(adminToken))).toMatchObject({ status: 200, body: { status: 'approved' } });
    expect(await api('POST', `/api/admin/opt-outs/${site.id}/reject`, undefined, bearer(adminToken))).toMatchObject({ status: 409, body: { detail: expect.stringContaining('approved') } });
    const after = await api('GET', '/api/admin/opt-outs?q=bakery.co.uk', undefined, bearer(adminToken));
    expect(after.body.suppressed).toEqual([{ kind: 'host', value: 'shop.bakery.co.uk', opt_out_id: site.id }]);

    expect((await optOut({ website: 'cafe.bakery.co.uk' })).status).toBe(202);
    const cafe = { body: (await api('GET', '/api/admin/opt-outs?q=cafe.bakery.co.uk', undefined, bearer(adminToken))).body.requests[0] as { id: string } };
    expect(await api('POST', `/api/admin/opt-outs/${cafe.body.id}/approve`, { scope: 'domain' }, bearer(adminToken)))
      .toMatchObject({ status: 200, body: { status: 'approved', scope: 'domain', domain: 'bakery.co.uk' } });
    expect(await api('DELETE', `/api/admin/opt-outs/${cafe.body.id}`, undefined, bearer(adminToken))).toMatchObject({ status: 200, body: { status: 'lifted' } });
    expect(await api('DELETE', `/api/admin/opt-outs/${site.id}`, undefined, bearer(adminToken))).toMatchObject({ status: 200, body: { status: 'lifted' } });
    expect((await api('GET', '/api/admin/opt-outs?q=bakery.co.uk', undefined, bearer(adminToken))).body.suppressed).toEqual([]);
    expect((await api('DELETE', '/api/admin/opt-outs/00000000-0000-7000-8000-000000000000', undefined, bearer(adminToken))).status).toBe(404);
  });

  it('rate-limits the public request per address (429 with a detail)', async () => {
    expect(posts).toBeLessThan(PER_HOUR);
    let last = 0;
    while (posts <= PER_HOUR) last = (await optOut({ email: `spam${posts}@example.com` })).status;
    expect(last).toBe(429);
    const limited = await optOut({ email: 'late@example.com' });
    expect(limited).toMatchObject({ status: 429, body: { detail: expect.stringMatching(/^Too many requests; try again in \d+ seconds?$/) } });
  });
});
