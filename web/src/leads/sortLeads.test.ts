import { describe, expect, it } from 'vitest';
import type { Lead } from '@leadforge/contracts';
import { nextSort, sortLeads } from './sortLeads';

const lead = (company: string, city = ''): Lead => ({ name: '', company, email: '', phone: '', website: '', city });

describe('sorting the results table', () => {
  it('sorts by a column either way, empty cells last, ties in delivery order', () => {
    const leads = [lead('beta', 'B'), lead('Alpha', ''), lead('gamma', 'A'), lead('alpha', 'C')];
    expect(sortLeads(leads, { column: 'company', direction: 'asc' }).map((l) => l.company)).toEqual(['Alpha', 'alpha', 'beta', 'gamma']);
    expect(sortLeads(leads, { column: 'city', direction: 'desc' }).map((l) => l.city)).toEqual(['C', 'B', 'A', '']);
    expect(sortLeads(leads, null)).toBe(leads);
  });

  it('cycles a header through ascending, descending and off', () => {
    const asc = nextSort(null, 'name');
    expect(asc).toEqual({ column: 'name', direction: 'asc' });
    expect(nextSort(asc, 'name')).toEqual({ column: 'name', direction: 'desc' });
    expect(nextSort({ column: 'name', direction: 'desc' }, 'name')).toBeNull();
    expect(nextSort(asc, 'city')).toEqual({ column: 'city', direction: 'asc' });
  });
});
