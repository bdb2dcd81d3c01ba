import type { DbOrTrx } from './searchRecord.ts';
import { e164Of, siteOf, siteOfEmail } from './businessKeys.ts';

/** The contact fields of a lead, stored or sent (rows and API leads alike; other fields pass through). */
interface ContactFields {
  name: string;
  email: string;
  phone: string;
  website: string;
}

/** Opt-out statuses under which an email or phone given in the request is suppressed (a rejection concerns the website). */
export const CONTACT_SUPPRESSED_STATUSES = ['applied', 'pending', 'approved', 'rejected'] as const;

/** What opt-outs suppress among some leads: exact emails and phones, and approved sites. */
export class Suppressions {
  constructor(private readonly emails: Set<string>, private readonly phones: Set<string>, private readonly sites: Set<string>) {}

  get empty(): boolean {
    return !this.emails.size && !this.phones.size && !this.sites.size;
  }

  /** The business's own website is on a suppressed site: the whole business is left out. */
  siteSuppressed(lead: Pick<ContactFields, 'website'>): boolean {
    const site = lead.website ? siteOf(lead.website) : undefined;
    return site !== undefined && this.sites.has(site);
  }

  emailSuppressed(email: string): boolean {
    if (!email) return false;
    const site = siteOfEmail(email);
    return this.emails.has(email.toLowerCase()) || (site !== undefined && this.sites.has(site));
  }

  phoneSuppressed(phone: string): boolean {
    const e164 = phone ? e164Of(phone) : undefined;
    return e164 !== undefined && this.phones.has(e164);
  }

  /**
   * The lead with what is suppressed blanked: a suppressed email or phone (and the fields that
   * describe it, `email_*` / `phone_*`); for a suppressed site, every way to reach the business.
   */
  blank<T extends ContactFields>(lead: T): T {
    if (this.empty) return lead;
    const whole = this.siteSuppressed(lead);
    const email = whole || this.emailSuppressed(lead.email);
    const phone = whole || this.phoneSuppressed(lead.phone);
    if (!email && !phone && !whole) return lead;
    const out = { ...lead } as Record<string, unknown>;
    for (const key of Object.keys(out)) {
      if ((email && (key === 'email' || key.startsWith('email_'))) || (phone && (key === 'phone' || key.startsWith('phone_')))) {
        // The contact blank, what describes it gone: '' is neither a verdict nor a time (a timestamptz column refuses it).
        if (key === 'email' || key === 'phone') out[key] = '';
        else delete out[key];
      }
    }
    if (whole) {
      out.name = '';
      out.website = '';
      delete out.socials;
    }
    return out as T;
  }
}

/**
 * The suppressions that concern these leads, read in one query bounded by the leads' own values
 * (so its cost follows the page, not the size of the suppression list).
 */
export async function suppressionsFor(db: DbOrTrx, leads: readonly Pick<ContactFields, 'email' | 'phone' | 'website'>[]): Promise<Suppressions> {
  const emails = new Set<string>();
  const phones = new Set<string>();
  const sites = new Set<string>();
  for (const lead of leads) {
    if (lead.email) {
      emails.add(lead.email.toLowerCase());
      const site = siteOfEmail(lead.email);
      if (site) sites.add(site);
    }
    const e164 = lead.phone ? e164Of(lead.phone) : undefined;
    if (e164) phones.add(e164);
    const site = lead.website ? siteOf(lead.website) : undefined;
    if (site) sites.add(site);
  }
  if (!emails.size && !phones.size && !sites.size) return new Suppressions(new Set(), new Set(), new Set());
  const rows: { email: string | null; phone: string | null; domain: string | null; status: string }[] = await db('opt_outs')
    .whereNot({ status: 'lifted' })
    .andWhere((q) => {
      if (emails.size) q.orWhereIn('email', [...emails]);
      if (phones.size) q.orWhereIn('phone', [...phones]);
      if (sites.size) q.orWhereIn('domain', [...sites]);
    })
    .select('email', 'phone', 'domain', 'status');
  const contactStatuses = new Set<string>(CONTACT_SUPPRESSED_STATUSES);
  return new Suppressions(
    new Set(rows.filter((r) => r.email && contactStatuses.has(r.status)).map((r) => r.email!)),
    new Set(rows.filter((r) => r.phone && contactStatuses.has(r.status)).map((r) => r.phone!)),
    new Set(rows.filter((r) => r.domain && r.status === 'approved').map((r) => r.domain!)),
  );
}

/** The leads with what opt-outs suppress blanked: the read path of every view and export. */
export async function withoutSuppressed<T extends ContactFields>(db: DbOrTrx, leads: T[]): Promise<T[]> {
  if (!leads.length) return leads;
  const suppressions = await suppressionsFor(db, leads);
  return suppressions.empty ? leads : leads.map((lead) => suppressions.blank(lead));
}
