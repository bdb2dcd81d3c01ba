import { memo, useId, useMemo, useState } from 'react';
import { EMAIL_DELIVERABILITIES, matchesFilter, REMOVED_AT_OWNERS_REQUEST, verdictWord, type EmailDeliverability, type Lead, type LeadFilter, type LeadSearchSummary, type RemovedField } from '@leadforge/contracts';
import { emailBadge, phoneBadge, provenanceText, type Badge } from './contactVerdicts';
import { ExportMenu } from './ExportMenu';
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

/**
 * The decision-maker's role under their name ("Owner", "Managing director"); its hint gives the role
 * as the page writes it, where it was found, and everyone else the pages name.
 */
const PersonRole = ({ lead }: { lead: Lead }) => {
  const [first, ...others] = lead.people ?? [];
  if (!first || first.name !== lead.name) return null;
  const hint = [
    first.role_text && `Written "${first.role_text}"`,
    first.source && `on ${first.source}`,
    others.length && `Also named: ${others.map((person) => `${person.name} (${verdictWord(person.role)})`).join(', ')}`,
  ].filter(Boolean).join(' · ');
  return <span className="person-role" title={hint || undefined}>{verdictWord(first.role)}{others.length ? ` +${others.length}` : ''}</span>;
};

const VerdictBadge = ({ badge }: { badge: Badge | undefined }) =>
  badge ? <span className={`verdict-badge verdict-${badge.tone}`} title={badge.hint}>{badge.label}</span> : null;

interface RowProps {
  lead: Lead;
  /** The lead's number in its search (from 1, delivery order): what an export of a selection names. */
  number: number;
  selected: boolean;
  onSelect(number: number, selected: boolean): void;
}

/** One row; scraped text is rendered as text, links only from safe schemes. */
const LeadRow = memo(function LeadRow({ lead, number, selected, onSelect }: RowProps) {
  const mailto = mailtoHref(lead.email);
  const tel = telHref(lead.phone);
  const website = httpUrl(lead.website);
  const emailFrom = provenanceText(lead.email_source, lead.email_fetched_at);
  const phoneFrom = provenanceText(lead.phone_source, lead.phone_fetched_at);
  // People read the international format with spaces; the link and the exports keep E.164.
  const phoneText = lead.phone_display || lead.phone;
  return (
    <tr className={selected ? 'is-selected' : undefined}>
      <td className="select-cell">
        <input type="checkbox" checked={selected} onChange={(event) => onSelect(number, event.target.checked)} aria-label={`Select ${lead.company || `lead ${number}`}`} />
      </td>
      <td>{lead.name ? <>{lead.name}<PersonRole lead={lead} /></> : <EmptyOr lead={lead} field="name" />}</td>
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

type Numbered = { lead: Lead; number: number };

interface TableProps {
  leads: readonly Lead[];
  emptyText: string;
  /** The search the leads belong to: selected rows export from it. */
  search?: Pick<LeadSearchSummary, 'id' | 'industry' | 'location' | 'created_at'>;
  /** What the table shows (the same rule filters the exports: contracts' matchesFilter). */
  filter: LeadFilter;
  onFilterChange(filter: LeadFilter): void;
  /** An export of the selection failed (or a new one started: ''). */
  onExportError?(detail: string): void;
}

/** The results: filter (words, has email, has phone, email verdict), sort, select rows and export them. */
export function LeadsTable({ leads, emptyText, search, filter, onFilterChange, onExportError = () => {} }: TableProps) {
  const [sort, setSort] = useState<LeadSort | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const ids = { text: useId(), verdict: useId() };
  const numbered = useMemo<Numbered[]>(() => leads.map((lead, index) => ({ lead, number: index + 1 })), [leads]);
  const rows = useMemo(() => {
    const shown = numbered.filter(({ lead }) => matchesFilter(lead, filter));
    const order = new Map(shown.map((row) => [row.lead, row]));
    return sortLeads(shown.map(({ lead }) => lead), sort).map((lead) => order.get(lead)!);
  }, [numbered, sort, filter]);
  const select = useMemo(() => (number: number, on: boolean) => setSelected((current) => {
    const next = new Set(current);
    if (on) next.add(number);
    else next.delete(number);
    return next;
  }), []);
  if (!leads.length) return <p className="leads-empty muted">{emptyText}</p>;

  const judged = leads.some((lead) => lead.email_deliverability);
  const filtered = rows.length !== leads.length;
  const allShownSelected = rows.length > 0 && rows.every(({ number }) => selected.has(number));
  const selectShown = (on: boolean) => setSelected((current) => {
    const next = new Set(current);
    for (const { number } of rows) {
      if (on) next.add(number);
      else next.delete(number);
    }
    return next;
  });
  const change = <K extends keyof LeadFilter>(key: K, value: LeadFilter[K]) => onFilterChange({ ...filter, [key]: value });
  const chosen = [...selected].sort((a, b) => a - b);
  return (
    <>
      <div className="leads-toolbar" role="search" aria-label="Filter the leads">
        <div className="field leads-filter-text">
          <label htmlFor={ids.text}>Filter</label>
          <input id={ids.text} type="search" placeholder="Name, company, email, city…" value={filter.text} onChange={(event) => change('text', event.target.value)} />
        </div>
        <label className="leads-filter">
          <input type="checkbox" checked={filter.hasEmail} onChange={(event) => change('hasEmail', event.target.checked)} />
          Has email
        </label>
        <label className="leads-filter">
          <input type="checkbox" checked={filter.hasPhone} onChange={(event) => change('hasPhone', event.target.checked)} />
          Has phone
        </label>
        {judged && (
          <div className="field leads-filter-verdict">
            <label htmlFor={ids.verdict}>Email verdict</label>
            <select id={ids.verdict} value={filter.emailDeliverability} onChange={(event) => change('emailDeliverability', event.target.value as EmailDeliverability | '')} data-testid="email-verdict-filter">
              <option value="">Any</option>
              {EMAIL_DELIVERABILITIES.map((word) => <option key={word} value={word}>{verdictWord(word)}</option>)}
            </select>
          </div>
        )}
        <p className="muted leads-shown" aria-live="polite">{filtered ? `Showing ${rows.length} of ${leads.length}` : `${leads.length} ${leads.length === 1 ? 'lead' : 'leads'}`}</p>
      </div>
      {chosen.length > 0 && (
        <div className="leads-selection" data-testid="leads-selection">
          <strong>{chosen.length} selected</strong>
          <ExportMenu search={search} disabled={!search} selected={chosen} onError={onExportError} />
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setSelected(new Set())}>Clear selection</button>
        </div>
      )}
      <div className="leads-table-wrap">
        <table className="leads-table" data-testid="leads-table">
          <thead>
            <tr>
              <th scope="col" className="select-cell">
                <input type="checkbox" checked={allShownSelected} onChange={(event) => selectShown(event.target.checked)} aria-label="Select every lead shown" />
              </th>
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
            {rows.map(({ lead, number }) => <LeadRow key={rowKey(lead)} lead={lead} number={number} selected={selected.has(number)} onSelect={select} />)}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && <p className="leads-empty muted">No lead matches the filter.</p>}
    </>
  );
}
