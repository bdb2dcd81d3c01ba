import { memo, useMemo, useState } from 'react';
import type { Lead } from '@leadforge/contracts';
import { httpUrl, mailtoHref, telHref } from './safeLinks';
import { nextSort, sortLeads, type LeadColumn, type LeadSort } from './sortLeads';

const COLUMNS: { key: LeadColumn; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'company', label: 'Company' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'website', label: 'Website' },
  { key: 'city', label: 'City' },
];

// A stable key per lead object (leads carry no id), so rows survive re-sorting and streaming.
const rowKeys = new WeakMap<Lead, number>();
let nextRowKey = 0;
const rowKey = (lead: Lead): number => {
  let key = rowKeys.get(lead);
  if (key === undefined) rowKeys.set(lead, (key = nextRowKey++));
  return key;
};

const Empty = () => <span className="muted" aria-label="none">—</span>;

/** One row; scraped text is rendered as text, links only from safe schemes. */
const LeadRow = memo(function LeadRow({ lead }: { lead: Lead }) {
  const mailto = mailtoHref(lead.email);
  const tel = telHref(lead.phone);
  const website = httpUrl(lead.website);
  return (
    <tr>
      <td>{lead.name || <Empty />}</td>
      <td>{lead.company || <Empty />}</td>
      <td>{mailto ? <a href={mailto}>{lead.email}</a> : lead.email || <Empty />}</td>
      <td className="nowrap">{tel ? <a href={tel}>{lead.phone}</a> : lead.phone || <Empty />}</td>
      <td>{website ? <a href={website} target="_blank" rel="noopener noreferrer" title={website}>Visit</a> : <Empty />}</td>
      <td>{lead.city || <Empty />}</td>
    </tr>
  );
});

export function LeadsTable({ leads, emptyText }: { leads: readonly Lead[]; emptyText: string }) {
  const [sort, setSort] = useState<LeadSort | null>(null);
  const rows = useMemo(() => sortLeads(leads, sort), [leads, sort]);
  if (!leads.length) return <p className="leads-empty muted">{emptyText}</p>;
  return (
    <div className="leads-table-wrap">
      <table className="leads-table" data-testid="leads-table">
        <thead>
          <tr>
            {COLUMNS.map(({ key, label }) => {
              const active = sort?.column === key ? sort.direction : undefined;
              return (
                <th key={key} scope="col" aria-sort={active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none'}>
                  <button type="button" className="sort-button" onClick={() => setSort((s) => nextSort(s, key))}>
                    {label}
                    <span className="sort-mark" aria-hidden="true">{active === 'asc' ? '▲' : active === 'desc' ? '▼' : '↕'}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((lead) => <LeadRow key={rowKey(lead)} lead={lead} />)}
        </tbody>
      </table>
    </div>
  );
}
