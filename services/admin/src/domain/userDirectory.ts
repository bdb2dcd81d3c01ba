import type { Knex } from 'knex';
import type { AdminUser, PageInfo } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import { containsPattern, iso, num } from './sqlValues.ts';

export interface UserTotals {
  listed: number;
  admins: number;
  inactive: number;
  credits: number;
}

/** The running totals the projection keeps (zeros before the first user event). */
export async function userTotals(db: Db): Promise<UserTotals> {
  const row = await db('rm_user_totals').where({ id: 1 }).first('listed', 'admins', 'inactive', 'credits');
  return { listed: num(row?.listed), admins: num(row?.admins), inactive: num(row?.inactive), credits: num(row?.credits) };
}

export interface UserFilter {
  search?: string;
  role?: 'all' | 'user' | 'admin';
}

interface UserRow {
  user_id: string;
  name: string;
  email: string;
  role: AdminUser['role'];
  status: AdminUser['status'];
  credits: number;
  created_at: Date | string;
}

export const toAdminUser = (row: UserRow): AdminUser => ({
  id: row.user_id,
  name: row.name,
  email: row.email,
  role: row.role,
  status: row.status,
  credits: num(row.credits),
  created_at: iso(row.created_at),
});

/** Users an admin sees: registered and not deleted (the predicate of the partial indexes). */
function listed(db: Db, filter: UserFilter): Knex.QueryBuilder {
  const query = db('rm_users').whereNotNull('created_at').andWhereNot('status', 'deleted');
  if (filter.role && filter.role !== 'all') query.andWhere('role', filter.role);
  const search = filter.search?.trim();
  if (search) query.andWhereRaw("search_text LIKE lower(?) ESCAPE '\\'", [containsPattern(search)]);
  return query;
}

/** How many users a filter lists: from the running totals unless a search needs the rows. */
async function countListed(db: Db, filter: UserFilter): Promise<number> {
  if (filter.search?.trim()) return num((await listed(db, filter).count({ total: '*' }))[0].total);
  const totals = await userTotals(db);
  if (filter.role === 'admin') return totals.admins;
  if (filter.role === 'user') return totals.listed - totals.admins;
  return totals.listed;
}

function newestFirst(db: Db, filter: UserFilter, limit: number, offset: number): Promise<UserRow[]> {
  return listed(db, filter)
    .select('user_id', 'name', 'email', 'role', 'status', 'credits', 'created_at')
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'user_id', order: 'desc' }])
    .limit(limit)
    .offset(offset);
}

/** One page of the user list, newest first, filtered on the server so thousands of users stay fast. */
export async function listUsers(db: Db, filter: UserFilter, page: number, pageSize: number): Promise<{ users: AdminUser[]; page: PageInfo }> {
  const [total, rows] = await Promise.all([countListed(db, filter), newestFirst(db, filter, pageSize, (page - 1) * pageSize)]);
  return { users: rows.map(toAdminUser), page: { page, page_size: pageSize, total } };
}

export async function newestUsers(db: Db, count: number): Promise<AdminUser[]> {
  return (await newestFirst(db, {}, count, 0)).map(toAdminUser);
}

export interface UserSnapshot {
  name: string | null;
  email: string | null;
  role: string;
  status: string;
  credits: number;
  /** When billing announced `credits`. */
  creditsAsOf: Date | null;
}

/** What the read model currently says about one user (undefined when it has never heard of them). */
export async function userSnapshot(db: Db, userId: string): Promise<UserSnapshot | undefined> {
  const row = await db('rm_users').where({ user_id: userId }).first('name', 'email', 'role', 'status', 'credits', 'credits_as_of');
  if (!row) return undefined;
  const { credits_as_of: asOf, ...rest } = row;
  return { ...rest, credits: num(row.credits), creditsAsOf: asOf ? new Date(asOf) : null };
}
