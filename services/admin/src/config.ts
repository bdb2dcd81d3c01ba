import { readInt } from '@leadforge/kit/config';

/** What the admin service reads from the environment, checked once at start. */
export interface AdminConfig {
  /** How long an admin action waits for its event to reach the read models before answering (ADMIN_CATCH_UP_MS). */
  catchUpMs: number;
}

export function loadAdminConfig(env: NodeJS.ProcessEnv): AdminConfig {
  return { catchUpMs: readInt(env, 'ADMIN_CATCH_UP_MS', 3000, 0, 60_000) };
}
