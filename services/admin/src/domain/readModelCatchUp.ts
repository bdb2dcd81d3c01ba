import type { Db } from '@leadforge/kit/db';
import { userSnapshot, type UserSnapshot } from './userDirectory.ts';

const POLL_MS = 20;

/**
 * Waits (up to `timeoutMs`) until the read model shows what an owner just confirmed, so the admin
 * data the panel reloads after an action already contains it. Returns false when the event is
 * still on its way; the change is made either way.
 */
export async function awaitReadModel(db: Db, userId: string, shows: (snapshot: UserSnapshot | undefined) => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (shows(await userSnapshot(db, userId))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
