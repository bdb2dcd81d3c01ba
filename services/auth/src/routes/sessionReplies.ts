import type { AuthRuntime } from '../runtime.ts';
import type { UserRow } from '../domain/users.ts';

/** The user as the API shows it, and a new session (access token) for them. */
export function sessionReplies(rt: AuthRuntime) {
  async function toUser(row: UserRow) {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      status: row.status,
      credits: await rt.balances.of(row.id),
      created_at: new Date(row.created_at).toISOString(),
      notify_search_ready: row.notify_search_ready,
    };
  }

  async function session(row: UserRow) {
    const access_token = rt.sign({ sub: row.id, email: row.email, name: row.name, role: row.role, gen: row.session_generation });
    return { user: await toUser(row), access_token, token_type: 'bearer' as const, expires_in: rt.tokenTtlSeconds };
  }

  return { toUser, session };
}
