import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { AffiliateApplication, AffiliateApplicationsResponse, AffiliateApplyRequest } from '@leadforge/contracts';
import { badRequest } from '@leadforge/kit/http';

/** "example.com" is what people type; store a full http(s) address, refuse anything else. */
export function normaliseWebsite(input: string | undefined): string | null {
  if (!input) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(input) ? input : `https://${input}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw badRequest('Please enter a valid website address', 'invalid_website');
  }
  if (!['http:', 'https:'].includes(url.protocol) || !url.hostname.includes('.')) throw badRequest('Please enter a valid website address', 'invalid_website');
  return url.toString();
}

export interface StoredApplication {
  id: string;
  name: string;
  email: string;
}

export async function submitApplication(db: Knex, input: AffiliateApplyRequest, meta: { userId?: string; remoteIp: string }): Promise<StoredApplication> {
  const application = {
    id: crypto.randomUUID(),
    user_id: meta.userId ?? null,
    name: input.name,
    email: input.email.toLowerCase(),
    website: normaliseWebsite(input.website),
    message: input.message || null,
    remote_ip: meta.remoteIp,
  };
  await db('affiliate_applications').insert(application);
  return application;
}

interface ApplicationRow {
  id: string;
  user_id: string | null;
  name: string;
  email: string;
  website: string | null;
  message: string | null;
  created_at: Date | string;
}

const toApplication = (row: ApplicationRow): AffiliateApplication => ({
  id: row.id, name: row.name, email: row.email, website: row.website, message: row.message, submitted_at: new Date(row.created_at).toISOString(),
});

/** The signed-in user's latest application, if any (what the page shows instead of the form). */
export async function latestApplication(db: Knex | Knex.Transaction, userId: string): Promise<AffiliateApplication | null> {
  const row: ApplicationRow | undefined = await db('affiliate_applications').where({ user_id: userId }).orderBy('created_at', 'desc').first();
  return row ? toApplication(row) : null;
}

/** Every application, newest first, for the admin panel. */
export async function listApplications(db: Knex, page: number, pageSize: number): Promise<AffiliateApplicationsResponse> {
  const [rows, [{ total }]] = await Promise.all([
    db('affiliate_applications').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(pageSize).offset((page - 1) * pageSize) as Promise<ApplicationRow[]>,
    db('affiliate_applications').count({ total: '*' }),
  ]);
  return { applications: rows.map((row) => ({ ...toApplication(row), user_id: row.user_id })), page: { page, page_size: pageSize, total: Number(total) } };
}

export type PayoutAddressSource = 'set' | 'application' | 'account';

/** Where this affiliate's payouts go: the address they set, else their latest application's, else their account's. */
export async function payoutAddress(db: Knex | Knex.Transaction, userId: string): Promise<{ payout_email: string; payout_email_source: PayoutAddressSource }> {
  const affiliate = await db('affiliates').where({ user_id: userId }).first('email', 'paypal_email');
  if (affiliate?.paypal_email) return { payout_email: affiliate.paypal_email, payout_email_source: 'set' };
  const application = await db('affiliate_applications').where({ user_id: userId }).orderBy('created_at', 'desc').first('email');
  if (application) return { payout_email: application.email, payout_email_source: 'application' };
  return { payout_email: affiliate?.email ?? '', payout_email_source: 'account' };
}

export async function setPayoutEmail(db: Knex, userId: string, paypalEmail: string): Promise<void> {
  await db('affiliates').where({ user_id: userId }).update({ paypal_email: paypalEmail.toLowerCase() });
}
