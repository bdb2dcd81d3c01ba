import type { Knex } from 'knex';
import type { Db } from '@leadforge/kit/db';
import { EMAIL_SHA256_SQL } from '@leadforge/contracts';

/** The messages sent through the contact form from this address (kept by address, not by account). */
export async function messagesFrom(db: Db, email: string) {
  const rows = await db('contact_submissions')
    .whereRaw('lower(trim(email)) = ?', [email.trim().toLowerCase()])
    .orderBy('submitted_at')
    .select('id', 'name', 'email', 'message', 'submitted_at');
  return { contact_messages: rows.map((r) => ({ ...r, submitted_at: new Date(r.submitted_at).toISOString() })) };
}

/** A deleted account's messages go: `account.deleted` names the address only by its SHA-256. */
export async function eraseMessagesFrom(trx: Knex.Transaction, emailSha256: string): Promise<number> {
  const erased: { id: string }[] = await trx('contact_submissions').whereRaw(`${EMAIL_SHA256_SQL} = ?`, [emailSha256]).delete().returning('id');
  // Their contact.submitted events, already relayed, leave the outbox's history too.
  await trx('kit_outbox').whereIn('key', erased.map((m) => m.id)).whereNotNull('published_at').delete();
  return erased.length;
}
