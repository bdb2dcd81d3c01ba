import { v7 as uuidv7 } from 'uuid';
import { badRequest, conflict, notFound, type Db } from '@leadforge/kit';
import {
  OPT_OUT_BAD_PHONE, OPT_OUT_BAD_WEBSITE, OPT_OUT_NOTHING_GIVEN,
  type AdminOptOutList, type AdminOptOutQuery, type OptOutEntry, type OptOutRequest, type OptOutStatus, type SuppressedValue,
} from '@leadforge/contracts';
import { e164Of, siteOf } from './businessKeys.ts';
import { CONTACT_SUPPRESSED_STATUSES } from './suppressions.ts';

interface OptOutRow {
  id: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  domain: string | null;
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
  reason: row.reason,
  status: row.status,
  created_at: iso(row.created_at)!,
  decided_at: iso(row.decided_at),
});

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
  const domain = websiteText === null ? null : siteOf(websiteText) ?? null;
  if (websiteText !== null && domain === null) throw badRequest(OPT_OUT_BAD_WEBSITE);
  const status: OptOutStatus = domain ? 'pending' : 'applied';
  const id = uuidv7();
  await db('opt_outs').insert({ id, email, phone, website: websiteText, domain, reason: blankToNull(input.reason), status });
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
    if (row.domain && row.status === 'approved') suppressed.push({ kind: 'domain', value: row.domain, opt_out_id: row.id });
  }
  return {
    requests: rows.map(toOptOutEntry),
    total: Number(total),
    page,
    page_size: pageSize,
    suppressed: needle ? suppressed.filter((s) => s.value.includes(needle)) : suppressed,
  };
}

/**
 * An administrator's decision: `approve` and `reject` decide a pending website; `lift` ends every
 * suppression of the request. Anything else is a 409 saying what the request's status is.
 */
export async function decideOptOut(db: Db, id: string, decision: 'approve' | 'reject' | 'lift'): Promise<OptOutEntry> {
  if (!UUID.test(id)) throw notFound(NOT_FOUND);
  return db.transaction(async (trx) => {
    const row: OptOutRow | undefined = await trx('opt_outs').where({ id }).forUpdate().first();
    if (!row) throw notFound(NOT_FOUND);
    if (decision !== 'lift' && row.status !== 'pending') throw conflict(`This request is ${row.status}; only a pending one can be approved or rejected`, 'opt_out_decided');
    if (decision === 'lift' && row.status === 'lifted') throw conflict('This suppression has already been lifted', 'opt_out_lifted');
    const status: OptOutStatus = decision === 'approve' ? 'approved' : decision === 'reject' ? 'rejected' : 'lifted';
    const [updated]: OptOutRow[] = await trx('opt_outs').where({ id }).update({ status, decided_at: trx.fn.now() }).returning('*');
    return toOptOutEntry(updated);
  });
}
