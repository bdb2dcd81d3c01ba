import { matchesFilter, type ExportedPart, type LeadFilter } from '@leadforge/contracts';
import { eachLeadRow } from './eachLeadRow.ts';
import { toLead } from './leadRows.ts';
import type { DbOrTrx } from './searchRecord.ts';

/** The lead numbers an export holds (undefined: every lead) and what part of the search they are. */
export interface ExportedLeads {
  positions: number[] | undefined;
  part: ExportedPart;
}

/**
 * Which leads an export of a selection and/or the table's filter holds, read before the download
 * starts so its file name can say how many: the selected rows that pass the filter ("selected-2"),
 * or the leads the filter shows out of all of them ("filtered-3-of-50"), as the results table counts.
 */
export async function exportedLeads(db: DbOrTrx, searchId: string, selected: number[] | undefined, filter: LeadFilter | undefined): Promise<ExportedLeads> {
  if (!selected && !filter) return { positions: undefined, part: { kind: 'all' } };
  const positions: number[] = [];
  let total = 0;
  for await (const row of eachLeadRow(db, searchId, selected)) {
    total += 1;
    if (!filter || matchesFilter(toLead(row), filter)) positions.push(row.position);
  }
  return { positions, part: selected ? { kind: 'selected', count: positions.length } : { kind: 'filtered', shown: positions.length, total } };
}
