import type { ActivityEntry, ActivityLogsResponse, ActivityType } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import { badRequest } from '@leadforge/kit/http';
import { iso, num, timeKeySql } from './sqlValues.ts';

/** A page boundary: the time key and id of the last entry shown (keyset pagination, fast at any depth). */
interface Cursor {
  at: string;
  id: string;
}

const encodeCursor = (c: Cursor) => Buffer.from(`${c.at}|${c.id}`).toString('base64url');

function decodeCursor(text: string): Cursor {
  const [at, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !id || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at ?? '')) {
    throw badRequest('cursor is invalid; reload the activity list from the first page', 'invalid_cursor');
  }
  return { at, id };
}

const DAILY_COUNT_OF: Record<Exclude<ActivityType, 'admin_action'>, string> = { scrape: 'scrapes', payment: 'purchases', refund: 'refunds' };

interface ActivityRow {
  event_id: string;
  user_name: string | null;
  user_email: string | null;
  type: Exclude<ActivityType, 'admin_action'>;
  user_id: string;
  occurred_at: Date | string;
  ref: string | null;
  results_count: number | null;
  credits: number | null;
  amount: string | number | null;
  time_key: string;
}

interface AuditRow {
  id: string;
  actor_name: string | null;
  target_name: string | null;
  actor_id: string;
  actor_email: string;
  action: string;
  target_id: string | null;
  result: string;
  detail: string;
  at: Date | string;
  time_key: string;
}

export interface ActivityQuery {
  type?: ActivityType;
  limit: number;
  cursor?: string;
}

/** User activity (scrapes, payments, refunds) or the admin audit log, newest first. */
export async function listActivity(db: Db, query: ActivityQuery): Promise<ActivityLogsResponse> {
  return query.type === 'admin_action' ? listAdminActions(db, query) : listUserActivity(db, query);
}

async function listUserActivity(db: Db, query: ActivityQuery): Promise<ActivityLogsResponse> {
  const type = query.type as Exclude<ActivityType, 'admin_action'> | undefined;
  // The total comes from the daily roll-ups: counting a million rows per page view would not scale.
  const counted = type ? DAILY_COUNT_OF[type] : 'scrapes + purchases + refunds';
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const newest = db('rm_activity as a')
    .leftJoin('rm_users as u', 'u.user_id', 'a.user_id')
    .select('a.event_id', 'a.type', 'a.user_id', 'a.occurred_at', 'a.ref', 'a.results_count', 'a.credits', 'a.amount',
      'u.name as user_name', 'u.email as user_email', db.raw(`${timeKeySql('a.occurred_at')} AS time_key`))
    .modify((q) => {
      if (type) q.where('a.type', type);
      if (cursor) q.andWhereRaw('(a.occurred_at, a.event_id) < (?::timestamptz, ?)', [cursor.at, cursor.id]);
    })
    .orderBy([{ column: 'a.occurred_at', order: 'desc' }, { column: 'a.event_id', order: 'desc' }])
    .limit(query.limit + 1);
  const [rows, totals]: [ActivityRow[], { total: unknown }] = await Promise.all([newest, db('rm_daily').first(db.raw(`coalesce(sum(${counted}), 0) AS total`))]);

  const page = rows.slice(0, query.limit);
  return {
    logs: page.map((r): ActivityEntry => ({
      id: r.event_id,
      type: r.type,
      user_id: r.user_id,
      user_name: r.user_name ?? null,
      user_email: r.user_email ?? null,
      timestamp: iso(r.occurred_at),
      details: r.type === 'scrape'
        ? { results_count: num(r.results_count), credits_used: num(r.credits), search_id: r.ref }
        : { amount: num(r.amount), credits: num(r.credits), purchase_id: r.ref },
    })),
    next_cursor: rows.length > query.limit ? encodeCursor({ at: page[page.length - 1].time_key, id: page[page.length - 1].event_id }) : null,
    total: num(totals.total),
  };
}

async function listAdminActions(db: Db, query: ActivityQuery): Promise<ActivityLogsResponse> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows: AuditRow[] = await db('admin_audit_log as l')
    .leftJoin('rm_users as actor', 'actor.user_id', 'l.actor_id')
    .leftJoin('rm_users as target', 'target.user_id', 'l.target_id')
    .select('l.id', 'l.actor_id', 'l.actor_email', 'l.action', 'l.target_id', 'l.result', 'l.detail', 'l.at',
      'actor.name as actor_name', 'target.name as target_name', db.raw(`${timeKeySql('l.at')} AS time_key`))
    .modify((q) => {
      if (cursor) q.whereRaw('(l.at, l.id) < (?::timestamptz, ?)', [cursor.at, cursor.id]);
    })
    .orderBy([{ column: 'l.at', order: 'desc' }, { column: 'l.id', order: 'desc' }])
    .limit(query.limit + 1);
  const [{ total }] = await db('admin_audit_log').count({ total: '*' });
  const page = rows.slice(0, query.limit);
  return {
    logs: page.map((r): ActivityEntry => ({
      id: r.id,
      type: 'admin_action',
      user_id: r.actor_id,
      user_name: r.actor_name ?? null,
      user_email: r.actor_email,
      timestamp: iso(r.at),
      details: { action: r.action, target_id: r.target_id, target_name: r.target_name ?? null, result: r.result, detail: r.detail, actor_email: r.actor_email },
    })),
    next_cursor: rows.length > query.limit ? encodeCursor({ at: page[page.length - 1].time_key, id: page[page.length - 1].id }) : null,
    total: num(total),
  };
}
