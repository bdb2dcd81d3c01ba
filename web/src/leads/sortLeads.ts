import type { Lead } from '@leadforge/contracts';

export type LeadColumn = 'name' | 'company' | 'email' | 'phone' | 'website' | 'city';
export interface LeadSort {
  column: LeadColumn;
  direction: 'asc' | 'desc';
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Leads sorted by one column; empty cells always last; equal cells keep delivery order. */
export function sortLeads(leads: readonly Lead[], sort: LeadSort | null): readonly Lead[] {
  if (!sort) return leads;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return leads
    .map((lead, index) => ({ lead, index }))
    .sort((a, b) => {
      const x = a.lead[sort.column];
      const y = b.lead[sort.column];
      if (!x !== !y) return x ? -1 : 1;
      return sign * collator.compare(x, y) || a.index - b.index;
    })
    .map(({ lead }) => lead);
}

/** Clicking a header: ascending, then descending, then back to delivery order. */
export function nextSort(current: LeadSort | null, column: LeadColumn): LeadSort | null {
  if (current?.column !== column) return { column, direction: 'asc' };
  return current.direction === 'asc' ? { column, direction: 'desc' } : null;
}
