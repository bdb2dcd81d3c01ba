import crypto from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@leadforge/kit/db';
import { conflict, notFound, unauthorized } from '@leadforge/kit/http';
import { API_KEY_PREFIX, type ApiKeyIdentity, type ApiKeySummary, type CreatedApiKey } from '@leadforge/contracts';

/** Enough keys for every script and integration a user runs; more is a sign of keys never revoked. */
export const MAX_ACTIVE_KEYS_PER_USER = 25;
/** Characters of the key kept in clear (`lf_` and 8 more): enough to tell keys apart, useless to guess. */
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** "Last used" is written at most this often per key: a busy script should not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

// A key is 256 random bits: a fast hash is as safe as a slow one and keeps every keyed call cheap.
const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const toSummary = (row: ApiKeyRow): ApiKeySummary => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: iso(row.created_at)!,
  last_used_at: iso(row.last_used_at),
  expires_at: iso(row.expires_at),
});

const active = (db: Db, userId: string) => db<ApiKeyRow>('api_keys')
  .where({ user_id: userId })
  .whereNull('revoked_at')
  .andWhere((q) => { q.whereNull('expires_at').orWhere('expires_at', '>', new Date()); });

export async function createApiKey(db: Db, userId: string, name: string, expiresInDays?: number): Promise<CreatedApiKey> {
  return db.transaction(async (trx) => {
    // One creation at a time per user, so the cap holds under concurrent requests; none for an account
    // deleted (or deactivated) while this request was on its way: its name would outlive the erasure.
    const owner = await trx('users').where({ id: userId }).forUpdate().first('status');
    if (owner?.status !== 'active') throw unauthorized('This account is not active', 'account_inactive');
    if (await countLiveApiKeys(trx, userId) >= MAX_ACTIVE_KEYS_PER_USER) {
      throw conflict(`You already have ${MAX_ACTIVE_KEYS_PER_USER} active API keys; revoke one you no longer use first`, 'too_many_api_keys');
    }
    const key = `${API_KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
    const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null;
    const [row] = await trx<ApiKeyRow>('api_keys')
      .insert({ id: uuidv7(), user_id: userId, name: name.trim(), prefix: key.slice(0, VISIBLE_PREFIX_LENGTH), key_hash: hashKey(key), expires_at: expiresAt })
      .returning('*');
    const { last_used_at: _never, ...created } = toSummary(row);
    return { ...created, key };
  });
}

/** The user's keys that still work, newest first (revoked and expired ones are gone from the list). */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeySummary[]> {
  const rows = await active(db, userId).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  return rows.map(toSummary);
}

export async function revokeApiKey(db: Db, userId: string, id: string): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('API key not found', 'api_key_not_found');
  const revoked = await db('api_keys').where({ id, user_id: userId }).whereNull('revoked_at').update({ revoked_at: new Date() });
  if (!revoked) throw notFound('API key not found', 'api_key_not_found');
}

/** Revokes every live key of the user (a password reset or change); how many were live. */
export async function revokeAllApiKeys(db: Db, userId: string): Promise<number> {
  const live = await active(db, userId).update({ revoked_at: new Date() }).returning('id');
  return live.length;
}

export async function countLiveApiKeys(db: Db, userId: string): Promise<number> {
  const [{ count }] = await active(db, userId).count({ count: '*' });
  return Number(count);
}

/** Whose key this is, when it is live and its owner active; notes its use. `null` otherwise. */
export async function verifyApiKey(db: Db, key: string): Promise<ApiKeyIdentity | null> {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const row: (ApiKeyRow & { email: string; user_name: string; role: 'user' | 'admin'; status: string }) | undefined = await db('api_keys')
    .join('users', 'users.id', 'api_keys.user_id')
    .where({ 'api_keys.key_hash': hashKey(key) })
    .first('api_keys.*', 'users.email', 'users.name as user_name', 'users.role', 'users.status');
  if (!row || row.revoked_at || row.status !== 'active') return null;
  const now = Date.now();
  if (row.expires_at && new Date(row.expires_at).getTime() <= now) return null;
  if (!row.last_used_at || now - new Date(row.last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
    await db('api_keys').where({ id: row.id }).update({ last_used_at: new Date(now) });
  }
  return { key_id: row.id, user_id: row.user_id, email: row.email, name: row.user_name, role: row.role };
}
