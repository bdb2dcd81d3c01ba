import type { Knex } from 'knex';

interface UserState {
  role: string;
  status: string;
  credits: number;
  created_at: string | Date | null;
}

/** Columns an event sets; null erases (a deleted account's name and email). */
export type UserFields = Partial<{ name: string | null; email: string | null; role: string; status: string; credits: number; credits_as_of: string; created_at: string }>;

const NEW_ROW: UserState = { role: 'user', status: 'active', credits: 0, created_at: null };

/** What one user adds to the running totals; the same predicates as the user list. */
function contribution(u: UserState) {
  const listed = u.created_at !== null && u.status !== 'deleted';
  return {
    listed: listed ? 1 : 0,
    admins: listed && u.role === 'admin' ? 1 : 0,
    inactive: u.created_at !== null && u.status === 'inactive' ? 1 : 0,
    // A deleted account's credits are forfeited: no longer credits in the system.
    credits: u.status === 'deleted' ? 0 : u.credits,
  };
}

/**
 * Applies a change to one user's read-model row and moves the running totals by the difference it
 * makes. Locks the user row, then the totals row: every handler takes them in this order (and the
 * daily roll-up after), so concurrent handlers never wait on each other in a cycle.
 * Returns whether the user was registered before this change.
 */
export async function changeUser(trx: Knex.Transaction, userId: string, fields: UserFields): Promise<{ wasRegistered: boolean }> {
  const before: UserState | undefined = await trx('rm_users').where({ user_id: userId }).forUpdate().first('role', 'status', 'credits', 'created_at');
  await trx('rm_users').insert({ user_id: userId, ...fields }).onConflict('user_id').merge({ ...fields, updated_at: trx.fn.now() });
  const old = contribution(before ?? NEW_ROW);
  const now = contribution({ ...NEW_ROW, ...before, ...fields } as UserState);
  const delta = { listed: now.listed - old.listed, admins: now.admins - old.admins, inactive: now.inactive - old.inactive, credits: now.credits - Number(old.credits) };
  if (delta.listed || delta.admins || delta.inactive || delta.credits) {
    await trx('rm_user_totals')
      .insert({ id: 1, ...delta })
      .onConflict('id')
      .merge({
        listed: trx.raw('rm_user_totals.listed + excluded.listed'),
        admins: trx.raw('rm_user_totals.admins + excluded.admins'),
        inactive: trx.raw('rm_user_totals.inactive + excluded.inactive'),
        credits: trx.raw('rm_user_totals.credits + excluded.credits'),
      });
  }
  return { wasRegistered: Boolean(before?.created_at) };
}
