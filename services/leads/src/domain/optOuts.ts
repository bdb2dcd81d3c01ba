import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@leadforge/kit/db';
import { badRequest, conflict, notFound } from '@leadforge/kit/http';
import {
  OPT_OUT_BAD_PHONE, OPT_OUT_BAD_WEBSITE, OPT_OUT_NOTHING_GIVEN,
  type AdminOptOutList, type AdminOptOutQuery, type OptOutEntry, type OptOutPreview, type OptOutRequest, type OptOutScope,
  type OptOutStatus, type SuppressedValue,
} from '@leadforge/contracts';
import { e164Of, optOutHostOf, siteOf } from './businessKeys.ts';
import { CONTACT_SUPPRESSED_STATUSES } from './suppressions.ts';

interface OptOutRow {
  id: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  domain: string | null;
  scope: OptOutScope | null;
  reason: string | null;
  status: OptOutStatus;
  created_at: Date | string;
  decided_at: Date | string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND = 'Opt-out request not found';
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
// PostgreSQL text refuses NUL, and no other control character belongs in these one-line fields.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;
const oneLine = (text: string) => text.replace(CONTROL_CHARS, ' ').trim();
const blankToNull = (text: string | undefined) => (text && oneLine(text) ? oneLine(text) : null);

export const toOptOutEntry = (row: OptOutRow): OptOutEntry => ({
  id: row.id,
  email: row.email,
  phone: row.phone,
  website: row.website,
  domain: row.domain,
  scope: row.scope,
  widens_to: widensTo(row),
  reason: row.reason,
  status: row.status,
  created_at: iso(row.created_at)!,
  decided_at: iso(row.decided_at),
});

/** The registrable domain an administrator could widen a website request to, when that is more than its host. */
function widensTo(row: Pick<OptOutRow, 'website' | 'domain' | 'scope'>): string | null {
  if (row.scope !== 'host' || !row.website) return null;
  const site = siteOf(row.website);
  return site && site !== row.domain ? site : null;
}

/**
 * Records a person's opt-out. An exact email address or phone number is suppressed at once
 * (`applied`); a website waits for an administrator (`pending`), its email/phone suppressed meanwhile.
 */
export async function requestOptOut(db: Db, input: OptOutRequest): Promise<{ id: string; status: OptOutStatus }> {
  const email = blankToNull(input.email)?.toLowerCase() ?? null;
  const phoneText = blankToNull(input.phone);
  const websiteText = blankToNull(input.website);
  if (!email && !phoneText && !websiteText) throw badRequest(OPT_OUT_NOTHING_GIVEN);
  const phone = phoneText === null ? null : e164Of(phoneText) ?? null;
  if (phoneText !== null && phone === null) throw badRequest(OPT_OUT_BAD_PHONE);
  // The host asked for (with its subdomains), never more: its neighbours under one domain are not its owner's to remove.
  const domain = websiteText === null ? null : optOutHostOf(websiteText) ?? null;
  if (websiteText !== null && domain === null) throw badRequest(OPT_OUT_BAD_WEBSITE);
  const status: OptOutStatus = domain ? 'pending' : 'applied';
  const id = uuidv7();
  await db('opt_outs').insert({ id, email, phone, website: websiteText, domain, scope: domain ? 'host' : null, reason: blankToNull(input.reason), status });
  return { id, status };
}

/** The requests (newest first, optionally filtered) and the values suppressed now, both matching `q`. */
export async function listOptOuts(db: Db, query: AdminOptOutQuery): Promise<AdminOptOutList> {
  const { q, status, page = 1, page_size: pageSize = 50 } = query;
  const needle = q ? oneLine(q).toLowerCase() : '';
  const pattern = needle ? `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const matching = db('opt_outs').modify((b) => {
    if (status) b.where({ status });
    if (pattern) {
      b.where((w) => {
        for (const column of ['email', 'phone', 'website', 'domain', 'reason']) w.orWhereRaw(`lower(${column}) LIKE ?`, [pattern]);
      });
    }
  });
  const [{ total }] = await matching.clone().count({ total: '*' });
  const rows: OptOutRow[] = await matching.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(pageSize).offset((page - 1) * pageSize);

  const active: OptOutRow[] = await db('opt_outs').whereIn('status', [...CONTACT_SUPPRESSED_STATUSES]).orderBy('created_at', 'desc').limit(5000);
  const suppressed: SuppressedValue[] = [];
  for (const row of active) {
    if (row.email) suppressed.push({ kind: 'email', value: row.email, opt_out_id: row.id });
    if (row.phone) suppressed.push({ kind: 'phone', value: row.phone, opt_out_id: row.id });
    if (row.domain && row.status === 'approved') suppressed.push({ kind: row.scope ?? 'host', value: row.domain, opt_out_id: row.id });
  }
  return {
    requests: rows.map(toOptOutEntry),
    total: Number(total),
    page,
    page_size: pageSize,
    suppressed: needle ? suppressed.filter((s) => s.value.includes(needle)) : suppressed,
  };
}

/** What approving the request at `scope` suppresses: its host, or (widened) the registrable domain. */
function suppressedBy(row: OptOutRow, scope: OptOutScope): string {
  if (!row.website || !row.domain) throw conflict('This request names no website; its email or phone is suppressed already', 'opt_out_no_website');
  if (scope === 'host' || row.scope === 'domain') return row.domain;
  return siteOf(row.website) ?? row.domain;
}

/**
 * An administrator's decision: `approve` and `reject` decide a pending website (`approve` with scope
 * `domain` widens it to the registrable domain, an explicit choice); `lift` ends every suppression of
 * the request. Anything else is a 409 saying what the request's status is.
 */
export async function decideOptOut(db: Db, id: string, decision: 'approve' | 'reject' | 'lift', scope: OptOutScope = 'host'): Promise<OptOutEntry> {
  if (!UUID.test(id)) throw notFound(NOT_FOUND);
  return db.transaction(async (trx) => {
    const row: OptOutRow | undefined = await trx('opt_outs').where({ id }).forUpdate().first();
    if (!row) throw notFound(NOT_FOUND);
    if (decision !== 'lift' && row.status !== 'pending') throw conflict(`This request is ${row.status}; only a pending one can be approved or rejected`, 'opt_out_decided');
    if (decision === 'lift' && row.status === 'lifted') throw conflict('This suppression has already been lifted', 'opt_out_lifted');
    const status: OptOutStatus = decision === 'approve' ? 'approved' : decision === 'reject' ? 'rejected' : 'lifted';
    const widened = decision === 'approve' && scope === 'domain' ? { domain: suppressedBy(row, 'domain'), scope: 'domain' } : {};
    const [updated]: OptOutRow[] = await trx('opt_outs').where({ id }).update({ status, decided_at: trx.fn.now(), ...widened }).returning('*');
    return toOptOutEntry(updated);
  });
}

// The host of a stored website (an absolute URL as URL.toString() wrote it: lower-case host, punycode),
// user info, port and brackets aside, without `www.`; and the domain of a stored email: what a
// suppressed host is compared with, in SQL. No `?` in them: knex would take it for a binding.
const WEBSITE_HOST_SQL = String.raw`regexp_replace(translate(regexp_replace(leads.website, '^[a-z]+://([^/@]*@)*(\[[^]/]*\]|[^/:\[]+).*$', '\2'), '[]', ''), '^www\.', '')`;
const EMAIL_HOST_SQL = "split_part(lower(leads.email), '@', 2)";

/**
 * What approving a pending website at `scope` would blank in searches already made: the stored leads
 * whose website or email is on that host or one of its subdomains, in how many searches of how many
 * users. A scan of the leads table, which an administrator's look before a decision can afford.
 */
export async function previewOptOut(db: Db, id: string, scope: OptOutScope = 'host'): Promise<OptOutPreview> {
  if (!UUID.test(id)) throw notFound(NOT_FOUND);
  const row: OptOutRow | undefined = await db('opt_outs').where({ id }).first();
  if (!row) throw notFound(NOT_FOUND);
  const value = suppressedBy(row, scope);
  const covers = (hostSql: string) => `(${hostSql} = ? OR right(${hostSql}, ?) = ?)`;
  const bindings = [value, value.length + 1, `.${value}`];
  const [counts]: { leads: number | string; searches: number | string; users: number | string }[] = await db('leads')
    .join('lead_searches', 'lead_searches.id', 'leads.search_id')
    .where((q) => { q.whereRaw(covers(WEBSITE_HOST_SQL), bindings).orWhereRaw(covers(EMAIL_HOST_SQL), bindings); })
    .select(db.raw('count(*) AS leads, count(DISTINCT leads.search_id) AS searches, count(DISTINCT lead_searches.user_id) AS users'));
  return { scope: row.scope === 'domain' ? 'domain' : scope, value, leads: Number(counts.leads), searches: Number(counts.searches), users: Number(counts.users) };
}
