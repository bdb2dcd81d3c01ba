import crypto from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@leadforge/kit/db';
import { badRequest, conflict, notFound } from '@leadforge/kit/http';
import type { Clock } from '@leadforge/kit/work';
import type { SearchMailer } from '../mail/searchMails.ts';
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

/** How long the link mailed to confirm an email opt-out works. */
export const OPT_OUT_CONFIRM_TTL_MS = 48 * 3600_000;
export const OPT_OUT_LINK_INVALID = 'This confirmation link is invalid or was used already';
export const OPT_OUT_LINK_EXPIRED = 'This confirmation link has expired (it works for 48 hours); please ask again on the opt-out page';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface OptOutDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  /** The confirmation link goes to the address by leads' own mail. */
  mail: SearchMailer;
}

/**
 * Records a person's opt-out; nothing is suppressed yet, since anyone may send one about anyone. An
 * email waits for its owner to open the link mailed to it (`unconfirmed`); a phone or a website waits
 * for an administrator (`pending`, one row for both). The caller answers the same whatever was found.
 */
export async function requestOptOut({ db, clock, publicUrl, mail }: OptOutDeps, input: OptOutRequest): Promise<{ emailOptOutId: string | null; reviewOptOutId: string | null }> {
  const email = blankToNull(input.email)?.toLowerCase() ?? null;
  const phoneText = blankToNull(input.phone);
  const websiteText = blankToNull(input.website);
  if (!email && !phoneText && !websiteText) throw badRequest(OPT_OUT_NOTHING_GIVEN);
  const phone = phoneText === null ? null : e164Of(phoneText) ?? null;
  if (phoneText !== null && phone === null) throw badRequest(OPT_OUT_BAD_PHONE);
  // The host asked for (with its subdomains), never more: its neighbours under one domain are not its owner's to remove.
  const domain = websiteText === null ? null : optOutHostOf(websiteText) ?? null;
  if (websiteText !== null && domain === null) throw badRequest(OPT_OUT_BAD_WEBSITE);
  const reason = blankToNull(input.reason);
  return db.transaction(async (trx) => {
    let emailOptOutId: string | null = null;
    let reviewOptOutId: string | null = null;
    if (email) {
      const id = uuidv7();
      emailOptOutId = id;
      const token = crypto.randomBytes(32).toString('base64url');
      const confirmBy = new Date(clock().getTime() + OPT_OUT_CONFIRM_TTL_MS);
      await trx('opt_outs').insert({ id, email, reason, status: 'unconfirmed', confirmation_hash: hashToken(token), confirm_by: confirmBy });
      await mail.send(trx, { to: email, template: 'opt-out-confirmation', data: { confirmUrl: `${publicUrl}/opt-out/confirm?token=${encodeURIComponent(token)}` }, giveUpAfterMs: OPT_OUT_CONFIRM_TTL_MS });
    }
    if (phone || domain) {
      reviewOptOutId = uuidv7();
      await trx('opt_outs').insert({ id: reviewOptOutId, phone, website: websiteText, domain, scope: domain ? 'host' : null, reason, status: 'pending' });
    }
    return { emailOptOutId, reviewOptOutId };
  });
}

/**
 * The owner of an email opened its link: from now on it is suppressed, in new searches and (on
 * every read) in past ones. A spent, unknown or expired link changes nothing and says which.
 */
export async function confirmOptOut({ db, clock }: OptOutDeps, token: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row: (OptOutRow & { confirm_by: Date | string | null }) | undefined = await trx('opt_outs')
      .where({ confirmation_hash: hashToken(token), status: 'unconfirmed' }).forUpdate().first();
    if (!row) throw badRequest(OPT_OUT_LINK_INVALID, 'opt_out_link_invalid');
    if (!row.confirm_by || new Date(row.confirm_by).getTime() <= clock().getTime()) throw badRequest(OPT_OUT_LINK_EXPIRED, 'opt_out_link_expired');
    await trx('opt_outs').where({ id: row.id }).update({ status: 'applied', decided_at: trx.fn.now(), confirmation_hash: null });
  });
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
  if (!row.website || !row.domain) throw conflict('This request names no website: approving it suppresses its phone number alone', 'opt_out_no_website');
  if (scope === 'host' || row.scope === 'domain') return row.domain;
  return siteOf(row.website) ?? row.domain;
}

/**
 * An administrator's decision: `approve` and `reject` decide a pending phone or website (`approve`
 * with scope `domain` widens a website to the registrable domain, an explicit choice); `lift` ends
 * every suppression of the request. Anything else is a 409 saying what the request's status is.
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
