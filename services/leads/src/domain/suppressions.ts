import type { RemovedField } from '@leadforge/contracts';
import type { DbOrTrx } from './searchRecord.ts';
import { coveringHostsOf, e164Of } from './businessKeys.ts';

/** The contact fields of a lead, stored or sent (rows and API leads alike; other fields pass through). */
interface ContactFields {
  name: string;
  email: string;
  phone: string;
  website: string;
  removed?: RemovedField[] | null;
}

/** The hosts a website opt-out would be stored under to cover this email's domain (see coveringHostsOf). */
const emailHostsOf = (email: string) => {
  const at = email.lastIndexOf('@');
  return at > 0 ? coveringHostsOf(email.slice(at + 1)) : [];
};

/** Opt-out statuses under which its email or phone is suppressed: a confirmed email, an approved phone. */
export const CONTACT_SUPPRESSED_STATUSES = ['applied', 'approved'] as const;

/** The order `removed` lists fields in. */
const REMOVABLE_FIELDS: RemovedField[] = ['name', 'email', 'phone', 'website', 'socials'];

/**
 * What opt-outs suppress among some leads: exact emails and phones, and approved hosts (each with
 * its subdomains: a host matches when it or one of its parents, up to its registrable domain, is in `hosts`).
 */
export class Suppressions {
  constructor(private readonly emails: Set<string>, private readonly phones: Set<string>, private readonly hosts: Set<string>) {}

  get empty(): boolean {
    return !this.emails.size && !this.phones.size && !this.hosts.size;
  }

  /** The business's own website is on a suppressed host: the whole business is left out. */
  siteSuppressed(lead: Pick<ContactFields, 'website'>): boolean {
    return !!lead.website && coveringHostsOf(lead.website).some((host) => this.hosts.has(host));
  }

  emailSuppressed(email: string): boolean {
    if (!email) return false;
    return this.emails.has(email.toLowerCase()) || emailHostsOf(email).some((host) => this.hosts.has(host));
  }

  phoneSuppressed(phone: string): boolean {
    const e164 = phone ? e164Of(phone) : undefined;
    return e164 !== undefined && this.phones.has(e164);
  }

  /**
   * The lead with what is suppressed blanked: a suppressed email or phone (and the fields that
   * describe it, `email_*` / `phone_*`); for a suppressed site, every way to reach the business.
   * `removed` lists the blanked fields that had a value, so every view and export can say why.
   */
  blank<T extends ContactFields>(lead: T): T {
    if (this.empty) return lead;
    const whole = this.siteSuppressed(lead);
    const email = whole || this.emailSuppressed(lead.email);
    const phone = whole || this.phoneSuppressed(lead.phone);
    if (!email && !phone && !whole) return lead;
    const out = { ...lead } as Record<string, unknown>;
    const removed = new Set<RemovedField>(lead.removed ?? []);
    if (email && lead.email) removed.add('email');
    if (phone && lead.phone) removed.add('phone');
    if (whole && lead.name) removed.add('name');
    if (whole && lead.website) removed.add('website');
    if (whole && Array.isArray(out.socials) && out.socials.length) removed.add('socials');
    for (const key of Object.keys(out)) {
      if ((email && (key === 'email' || key.startsWith('email_'))) || (phone && (key === 'phone' || key.startsWith('phone_')))) {
        // The contact blank, what describes it gone: '' is neither a verdict nor a time (a timestamptz column refuses it).
        if (key === 'email' || key === 'phone') out[key] = '';
        else delete out[key];
      }
    }
    if (whole) {
      // The people are named with the business: they go with its name ("removed" lists the name).
      out.name = '';
      out.website = '';
      delete out.socials;
      delete out.people;
    }
    if (removed.size) out.removed = REMOVABLE_FIELDS.filter((field) => removed.has(field));
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
  const hosts = new Set<string>();
  for (const lead of leads) {
    if (lead.email) {
      emails.add(lead.email.toLowerCase());
      for (const host of emailHostsOf(lead.email)) hosts.add(host);
    }
    const e164 = lead.phone ? e164Of(lead.phone) : undefined;
    if (e164) phones.add(e164);
    if (lead.website) for (const host of coveringHostsOf(lead.website)) hosts.add(host);
  }
  if (!emails.size && !phones.size && !hosts.size) return new Suppressions(new Set(), new Set(), new Set());
  const rows: { email: string | null; phone: string | null; domain: string | null; status: string }[] = await db('opt_outs')
    .whereNot({ status: 'lifted' })
    .andWhere((q) => {
      if (emails.size) q.orWhereIn('email', [...emails]);
      if (phones.size) q.orWhereIn('phone', [...phones]);
      // `domain` holds the approved host (or the registrable domain an administrator widened it to).
      if (hosts.size) q.orWhereIn('domain', [...hosts]);
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
