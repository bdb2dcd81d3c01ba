import type { AxiosInstance } from 'axios';
import type { CommissionsResponse, LeadSearchPage } from '@leadforge/contracts';

type Http = Pick<AxiosInstance, 'get'>;

/** Pages through a list route until it has every item (or `maxPages` pages). */
async function allPages<P, T>(http: Http, path: string, pick: (data: P) => { items: T[]; total: number }, maxPages = 1000): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const { data } = await http.get<P>(path, { params: { page, page_size: 100 } });
    const got = pick(data);
    items.push(...got.items);
    if (got.items.length === 0 || items.length >= got.total) break;
  }
  return items;
}

/**
 * Everything the product holds for the signed-in user that its pages show: the account, purchases,
 * every lead search with its leads, and the affiliate statement. Read through the same API the pages
 * use, so the file holds exactly what the user may see.
 */
export async function collectMyData(http: Http) {
  const [account, payments, searches, affiliate, commissions] = await Promise.all([
    http.get('/api/auth/me').then((r) => r.data),
    http.get('/api/payments/history', { params: { limit: 100 } }).then((r) => r.data.purchases),
    allPages(http, '/api/lead-searches', (d: LeadSearchPage) => ({ items: d.searches, total: d.total })),
    http.get('/api/affiliate/stats').then((r) => r.data, () => null),
    allPages(http, '/api/affiliate/commissions', (d: CommissionsResponse) => ({ items: d.commissions, total: d.total })).catch(() => null),
  ]);
  const searchesWithLeads = [];
  for (const search of searches) searchesWithLeads.push((await http.get(`/api/lead-searches/${encodeURIComponent(search.id)}`)).data);
  return {
    exported_at: new Date().toISOString(),
    account,
    purchases: payments,
    lead_searches: searchesWithLeads,
    affiliate: affiliate ? { ...affiliate, commissions } : null,
  };
}

/** Offers the data as a JSON file download. */
export function downloadJson(fileName: string, data: unknown): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
