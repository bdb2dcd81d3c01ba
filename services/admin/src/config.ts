import { Type } from 'typebox';
import { readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';

/** Every variable the admin service reads besides the kit's. */
export const AdminVariables = Type.Object({
  ADMIN_CATCH_UP_MS: Variable.integer({ description: 'how long an admin action waits for its event to reach the read models before answering', default: 3000, minimum: 0, maximum: 60_000 }),
});

/** What the admin service reads from the environment, checked once at start. */
export interface AdminConfig {
  /** How long an admin action waits for its event to reach the read models before answering (ADMIN_CATCH_UP_MS). */
  catchUpMs: number;
}

export function adminConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems): AdminConfig {
  return { catchUpMs: readVariables(AdminVariables, env, problems).ADMIN_CATCH_UP_MS };
}
