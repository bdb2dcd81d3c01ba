import { mailRecipientPath, type MailRecipient } from '@leadforge/contracts';
import { HttpError } from '../http/errors.ts';
import type { InternalClient } from '../http/internalCalls.ts';

/**
 * Where a user's emails go, asked of auth, which owns the address (a service never reads auth's
 * tables): undefined for an account that is gone or deactivated. Without an answer from auth it
 * throws, so the consumer asking has its event again later.
 */
export async function mailRecipientOf(internal: InternalClient, userId: string): Promise<MailRecipient | undefined> {
  try {
    return await internal.call<MailRecipient>('auth', 'GET', mailRecipientPath(userId), { timeoutMs: 3000 });
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) return undefined;
    throw err;
  }
}
