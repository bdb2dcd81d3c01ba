import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { RECAPTCHA_MESSAGES, type ContactRequest } from '@leadforge/contracts';
import { emitEvent } from '@leadforge/kit/events';
import { badRequest, serviceUnavailable } from '@leadforge/kit/http';
import { tokenHash, VerifierUnavailable, type TokenVerifier } from './robotCheck.ts';

export interface SubmissionMeta {
  remoteIp: string;
  userAgent?: string;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';
const reused = () => badRequest(RECAPTCHA_MESSAGES.failed, 'recaptcha_reused');

/**
 * Verifies the robot check, then stores the message and announces it (contact.submitted, for the
 * admin panel) in one transaction. A refused check stores nothing; the `code` says why.
 */
export async function submitContactMessage(db: Knex, verifier: TokenVerifier, input: ContactRequest, meta: SubmissionMeta, log: Logger): Promise<string> {
  const token = input.recaptcha_token?.trim();
  if (!token) throw badRequest(RECAPTCHA_MESSAGES.missing, 'recaptcha_missing');
  const hash = tokenHash(token);
  if (await db('contact_submissions').where({ token_hash: hash }).first('id')) throw reused();

  let verdict;
  try {
    verdict = await verifier.verify(token, meta.remoteIp);
  } catch (err) {
    if (!(err instanceof VerifierUnavailable)) throw err;
    log.error({ err }, 'robot check could not be verified');
    throw serviceUnavailable('The robot check could not be verified right now. Please try again in a minute.', 'recaptcha_unavailable');
  }
  if (!verdict.ok) {
    log.warn({ reason: verdict.reason, errorCodes: verdict.errorCodes, ip: meta.remoteIp }, 'robot check refused');
    throw badRequest(RECAPTCHA_MESSAGES.failed, `recaptcha_${verdict.reason}`);
  }

  const id = crypto.randomUUID();
  try {
    await db.transaction(async (trx) => {
      const [row] = await trx('contact_submissions').insert({
        id,
        name: input.name,
        email: input.email,
        message: input.message,
        remote_ip: meta.remoteIp,
        user_agent: meta.userAgent?.slice(0, 500) ?? null,
        recaptcha_hostname: verdict.hostname ?? null,
        token_hash: hash,
      }).returning(['id', 'submitted_at']);
      await emitEvent(trx, 'contact.submitted', id, {
        submission_id: id,
        name: input.name,
        email: input.email,
        message: input.message,
        submitted_at: new Date(row.submitted_at).toISOString(),
      });
    });
  } catch (err) {
    // The same token sent twice at once: both passed the look-up, one insert wins.
    if (isUniqueViolation(err)) throw reused();
    throw err;
  }
  return id;
}
