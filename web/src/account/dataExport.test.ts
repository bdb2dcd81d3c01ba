import { describe, expect, it } from 'vitest';
import { collectMyData } from './dataExport';

/** Answers the export's GETs from a fixed set of 150 searches, paged as the leads service pages them. */
function fakeApi(options: { affiliate: boolean }) {
  const searches = Array.from({ length: 150 }, (_, i) => ({ id: `s${i}` }));
  const calls: string[] = [];
  const get = async (path: string, config?: { params?: Record<string, number> }) => {
    calls.push(`${path}${config?.params ? `?${new URLSearchParams(Object.entries(config.params).map(([k, v]) => [k, String(v)]))}` : ''}`);
    if (path === '/api/auth/me') return { data: { email: 'ada@example.com' } };
    if (path === '/api/payments/history') return { data: { purchases: [{ id: 'p1' }] } };
    if (path === '/api/lead-searches') {
      const { page, page_size } = config!.params!;
      return { data: { searches: searches.slice((page - 1) * page_size, page * page_size), total: searches.length, page, page_size } };
    }
    if (path.startsWith('/api/lead-searches/')) return { data: { id: path.split('/').pop(), leads: [{ name: 'Lead' }] } };
    if (!options.affiliate) throw new Error('not an affiliate');
    if (path === '/api/affiliate/stats') return { data: { referral_code: 'ABC' } };
    if (path === '/api/affiliate/commissions') return { data: { commissions: [{ id: 'c1' }], total: 1 } };
    throw new Error(`unexpected ${path}`);
  };
  return { http: { get } as never, calls };
}

describe('collectMyData', () => {
  it('gathers the account, purchases, every page of searches with their leads, and the affiliate statement', async () => {
    const { http, calls } = fakeApi({ affiliate: true });
    const data = await collectMyData(http);
    expect(data.account).toEqual({ email: 'ada@example.com' });
    expect(data.purchases).toEqual([{ id: 'p1' }]);
    expect(data.lead_searches).toHaveLength(150);
    expect(data.lead_searches[149]).toEqual({ id: 's149', leads: [{ name: 'Lead' }] });
    expect(calls.filter((c) => c.startsWith('/api/lead-searches?'))).toEqual(['/api/lead-searches?page=1&page_size=100', '/api/lead-searches?page=2&page_size=100']);
    expect(data.affiliate).toEqual({ referral_code: 'ABC', commissions: [{ id: 'c1' }] });
  });

  it('leaves the affiliate part empty for a user who is not an affiliate', async () => {
    const { http } = fakeApi({ affiliate: false });
    expect((await collectMyData(http)).affiliate).toBeNull();
  });
});
