import type { Knex } from 'knex';
import { lockAccountForWrite, unauthorized } from '@leadforge/kit';

/** Locks the account for a write of the user's (a search, a webhook endpoint); 401 when its data has been erased (a request let in before the deletion). */
export async function lockLiveAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  if ((await lockAccountForWrite(trx, 'leads', userId)).erased) throw unauthorized('This account is not active', 'account_inactive');
}

