import type { Lead } from '@leadforge/contracts';

const EMAIL_STATUS_LABELS: Record<string, string> = {
  valid: 'Valid', risky: 'Risky', invalid: 'Invalid', unknown: 'Unchecked',
};

const EMAIL_STATUS_HINTS: Record<string, string> = {
  valid: 'The domain takes mail and the address is not disposable',
  risky: 'Reaches a shared mailbox (info@, office@…) or a free-mail provider',
  invalid: 'The domain takes no mail, or the address is disposable',
  unknown: 'The mail check was not run',
};

const PHONE_TYPE_LABELS: Record<string, string> = {
  mobile: 'Mobile', fixed_line: 'Landline', fixed_line_or_mobile: 'Landline or mobile', toll_free: 'Toll-free',
  premium_rate: 'Premium rate', shared_cost: 'Shared cost', voip: 'VoIP', personal_number: 'Personal number',
  pager: 'Pager', uan: 'Company number', voicemail: 'Voicemail',
};

export interface Badge {
  label: string;
  tone: 'good' | 'warn' | 'bad' | 'neutral';
  hint: string;
}

export function emailBadge(lead: Lead): Badge | undefined {
  const status = lead.email_status;
  if (!lead.email || !status) return undefined;
  const tone = status === 'valid' ? 'good' : status === 'risky' ? 'warn' : status === 'invalid' ? 'bad' : 'neutral';
  const role = lead.email_type === 'role' ? ' · role address' : '';
  return { label: EMAIL_STATUS_LABELS[status] ?? status, tone, hint: `${EMAIL_STATUS_HINTS[status] ?? ''}${role}` };
}

export function phoneBadge(lead: Lead): Badge | undefined {
  const label = lead.phone_type ? PHONE_TYPE_LABELS[lead.phone_type] : undefined;
  return lead.phone && label ? { label, tone: 'neutral', hint: `${label} number` } : undefined;
}

const when = (iso: string | undefined): string => {
  const time = iso ? new Date(iso) : undefined;
  return time && !Number.isNaN(time.getTime()) ? `, fetched ${time.toLocaleString()}` : '';
};

/** "Found on <page>, fetched <time>" for the hover; a place tag's source ("osm:node/1") is the map listing. */
export function provenanceText(source: string | undefined, fetchedAt: string | undefined): string | undefined {
  if (!source) return undefined;
  return /^https?:\/\//i.test(source) ? `Found on ${source}${when(fetchedAt)}` : `From the map listing (${source})`;
}

/** The leads to show: with `onlyValidEmails`, those whose email was judged valid. */
export const filterByEmailVerdict = (leads: readonly Lead[], onlyValidEmails: boolean): readonly Lead[] =>
  onlyValidEmails ? leads.filter((lead) => lead.email_status === 'valid') : leads;
