import crypto from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import { conflict, notFound, unauthorized, badRequest } from '@leadforge/kit/http';
import type { Role, UserStatus } from '@leadforge/contracts';
import { PASSWORD_MIN_LENGTH } from '@leadforge/contracts';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.ts';
import { normaliseEmail } from './emailAddress.ts';
import { signupGrantWithheld } from './withheldSignupGrants.ts';
import { queueEmailVerification } from './emailVerification.ts';
import type { AccountMailer } from '../mail/accountMails.ts';

export interface UserRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  role: Role;
  status: UserStatus;
  /** Bumped by every password change; tokens carry it as `gen`. */
  session_generation: number;
  notify_search_ready: boolean;
  /** Set when the owner opened the verification link mailed at registration. */
  email_verified_at: Date | null;
  created_at: Date;
}

export interface Registration {
  name: string;
  email: string;
  password: string;
  referral_code?: string;
  promo_code?: string;
  order_id?: string;
  promo_claim_token?: string;
  device_id?: string;
}

/**
 * Creates an account with the role `user`, whatever its address: ADMIN_EMAILS grants admin only once
 * the address is verified (`verifyEmail`), so registering someone's address first gains nothing.
 */
export async function registerUser(db: Db, input: Registration, mail: AccountMailer, signupAddress?: string): Promise<UserRow> {
  const name = input.name.trim();
  const email = normaliseEmail(input.email);
  if (!name) throw badRequest('Please fill in all fields');
  if (input.password.length < PASSWORD_MIN_LENGTH) throw badRequest('Password must be at least 6 characters long');
  const withheld = await signupGrantWithheld(db, email);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (trx) => {
      const [user] = await trx('users')
        .insert({ id: uuidv7(), name, email, password_hash: passwordHash, role: 'user', status: 'active' })
        .returning('*');
      await emitEvent(trx, 'user.registered', user.id, {
        user_id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        status: user.status,
        created_at: new Date(user.created_at).toISOString(),
        ...(input.referral_code ? { referral_code: input.referral_code.trim() } : {}),
        ...(input.promo_code ? { promo_code: input.promo_code.trim().toUpperCase() } : {}),
        ...(input.order_id ? { order_id: input.order_id.trim() } : {}),
        ...(input.promo_claim_token ? { promo_claim_hash: crypto.createHash('sha256').update(input.promo_claim_token.trim()).digest('hex') } : {}),
        ...(withheld ? { signup_grant: false } : {}),
        ...(signupAddress ? { signup_address: signupAddress } : {}),
        ...(input.device_id ? { device_id: input.device_id } : {}),
      });
      await queueEmailVerification(trx, mail, user);
      return user as UserRow;
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict('An account with this email already exists', 'email_taken');
    throw err;
  }
}

export async function authenticateUser(db: Db, emailInput: string, password: string): Promise<UserRow> {
  const user: UserRow | undefined = await db('users').where({ email: normaliseEmail(emailInput) }).first();
  if (!user) {
    await verifyPassword(password, await DUMMY_HASH_PROMISE);
    throw unauthorized('Invalid email or password', 'invalid_credentials');
  }
  if (!(await verifyPassword(password, user.password_hash))) throw unauthorized('Invalid email or password', 'invalid_credentials');
  if (user.status !== 'active') throw unauthorized('This account is not active; contact support', 'account_inactive');
  return user;
}

export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return db('users').where({ id }).first();
}

/**
 * What every service checks a token against, read on every signed-in request: only the three
 * columns it needs (half the cost of the whole row on the embedded engine, bench/results/userStanding.md).
 */
export async function findStanding(db: Db, id: string): Promise<Pick<UserRow, 'role' | 'status' | 'session_generation'> | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return db('users').where({ id }).first('role', 'status', 'session_generation');
}

/** Where an active user's emails go, for the services that send them their own. */
export async function findMailRecipient(db: Db, id: string): Promise<{ user_id: string; email: string; name: string; notify_search_ready: boolean } | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const user: UserRow | undefined = await db('users').where({ id, status: 'active' }).first();
  return user && { user_id: user.id, email: user.email, name: user.name, notify_search_ready: user.notify_search_ready };
}

export async function setRole(db: Db, id: string, role: Role, actorId?: string): Promise<UserRow> {
  if (actorId && actorId === id && role !== 'admin') throw badRequest('You cannot demote your own account', 'self_demote');
  return db.transaction(async (trx) => {
    const user: UserRow | undefined = await trx('users').where({ id }).forUpdate().first();
    if (!user || user.status === 'deleted') throw notFound('User not found', 'user_not_found');
    if (user.role === role) return user;
    const [updated] = await trx('users').where({ id }).update({ role, updated_at: trx.fn.now() }).returning('*');
    await emitEvent(trx, 'user.role_changed', id, { user_id: id, role, ...(actorId ? { actor_id: actorId } : {}) });
    return updated as UserRow;
  });
}

export async function setStatus(db: Db, id: string, status: UserStatus, actorId?: string): Promise<UserRow> {
  if (actorId && actorId === id && status !== 'active') throw badRequest('You cannot deactivate your own account', 'self_deactivate');
  return db.transaction(async (trx) => {
    const user: UserRow | undefined = await trx('users').where({ id }).forUpdate().first();
    if (!user) throw notFound('User not found', 'user_not_found');
    if (user.status === status) return user;
    const [updated] = await trx('users').where({ id }).update({ status, updated_at: trx.fn.now() }).returning('*');
    await emitEvent(trx, 'user.status_changed', id, { user_id: id, status, ...(actorId ? { actor_id: actorId } : {}) });
    return updated as UserRow;
  });
}

/**
 * Makes the existing accounts of `emails` admins; returns the emails promoted. `verifiedOnly` (each
 * start, for ADMIN_EMAILS) passes over an address whose owner has not opened its verification link;
 * `npm run user:promote`, an operator's explicit choice, promotes without it.
 */
export async function promoteAdmins(db: Db, emails: Iterable<string>, { verifiedOnly }: { verifiedOnly: boolean }): Promise<string[]> {
  const promoted: string[] = [];
  for (const email of emails) {
    const user: UserRow | undefined = await db('users').where({ email: normaliseEmail(email) }).first();
    if (user && user.role !== 'admin' && (!verifiedOnly || user.email_verified_at)) {
      await setRole(db, user.id, 'admin');
      promoted.push(user.email);
    }
  }
  return promoted;
}

export function parseAdminEmails(value: string | undefined): Set<string> {
  return new Set((value ?? '').split(',').map(normaliseEmail).filter(Boolean));
}
