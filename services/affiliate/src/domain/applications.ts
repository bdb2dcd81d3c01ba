import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { AffiliateApplyRequest } from '@leadforge/contracts';
import { badRequest } from '@leadforge/kit';

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
