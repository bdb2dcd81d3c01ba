import { memo, useMemo, useState } from 'react';
import { REMOVED_AT_OWNERS_REQUEST, type Lead, type RemovedField } from '@leadforge/contracts';
import { emailBadge, filterByEmailVerdict, phoneBadge, provenanceText, type Badge } from './contactVerdicts';
import { httpUrl, mailtoHref, telHref } from './safeLinks';
import { nextSort, sortLeads, type LeadColumn, type LeadSort } from './sortLeads';
import './contactVerdicts.css';

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

// An opt-out blanked it: say why rather than show an empty cell the user paid for.
const Removed = () => <span className="removed-note">{REMOVED_AT_OWNERS_REQUEST}</span>;
const EmptyOr = ({ lead, field }: { lead: Lead; field: RemovedField }) => (lead.removed?.includes(field) ? <Removed /> : <Empty />);

const VerdictBadge = ({ badge }: { badge: Badge | undefined }) =>
  badge ? <span className={`verdict-badge verdict-${badge.tone}`} title={badge.hint}>{badge.label}</span> : null;

/** One row; scraped text is rendered as text, links only from safe schemes. */
const LeadRow = memo(function LeadRow({ lead }: { lead: Lead }) {
  const mailto = mailtoHref(lead.email);
  const tel = telHref(lead.phone);
  const website = httpUrl(lead.website);
  const emailFrom = provenanceText(lead.email_source, lead.email_fetched_at);
  const phoneFrom = provenanceText(lead.phone_source, lead.phone_fetched_at);
  // People read the international format with spaces; the link and the exports keep E.164.
  const phoneText = lead.phone_display || lead.phone;
  return (
    <tr>
      <td>{lead.name || <EmptyOr lead={lead} field="name" />}</td>
      <td>{lead.company || <Empty />}{lead.owned && <span className="owned-badge" title="You already have this business: included free">Already yours</span>}</td>
      <td>
        {mailto ? <a href={mailto} title={emailFrom} className={emailFrom ? 'has-provenance' : undefined}>{lead.email}</a> : lead.email || <EmptyOr lead={lead} field="email" />}
        <VerdictBadge badge={emailBadge(lead)} />
      </td>
      <td className="nowrap">
        {tel ? <a href={tel} title={phoneFrom} className={phoneFrom ? 'has-provenance' : undefined}>{phoneText}</a> : phoneText || <EmptyOr lead={lead} field="phone" />}
        <VerdictBadge badge={phoneBadge(lead)} />
      </td>
      <td>{website ? <a href={website} target="_blank" rel="noopener noreferrer" title={website}>Visit</a> : <EmptyOr lead={lead} field="website" />}</td>
      <td>{lead.city || <Empty />}</td>
    </tr>
  );
});

export function LeadsTable({ leads, emptyText }: { leads: readonly Lead[]; emptyText: string }) {
  const [sort, setSort] = useState<LeadSort | null>(null);
  const [onlyValidEmails, setOnlyValidEmails] = useState(false);
  const rows = useMemo(() => sortLeads(filterByEmailVerdict(leads, onlyValidEmails), sort), [leads, sort, onlyValidEmails]);
  if (!leads.length) return <p className="leads-empty muted">{emptyText}</p>;
  const judged = leads.some((lead) => lead.email_status);
  return (
    <>
      {judged && (
        <label className="leads-filter">
          <input type="checkbox" checked={onlyValidEmails} onChange={(event) => setOnlyValidEmails(event.target.checked)} data-testid="only-valid-emails" />
          Only valid emails{onlyValidEmails ? ` (${rows.length} of ${leads.length})` : ''}
        </label>
      )}
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
    </>
  );
}
