import { verdictWord, type Lead } from '@leadforge/contracts';

const DELIVERABILITY_HINTS: Record<string, string> = {
  deliverable: 'Its mail server accepted this address (and refused a made-up one)',
  undeliverable: 'Malformed, the domain takes no mail, or its mail server refused this mailbox',
  accept_all: 'Its mail server accepts any address at the domain, so this one is unconfirmed',
  unknown: 'The mail check was off or got no answer (a slow or greylisting server, port 25 blocked)',
};

const TYPE_WORDS: Record<string, string> = {
  role: 'role address (info@, office@…)', personal: 'personal address', free_mail: 'free-mail address', disposable: 'disposable address',
};

export interface Badge {
  label: string;
  tone: 'good' | 'warn' | 'bad' | 'neutral';
  hint: string;
}

export function emailBadge(lead: Lead): Badge | undefined {
  const deliverability = lead.email_deliverability;
  if (!lead.email || !deliverability) return undefined;
  const tone = deliverability === 'deliverable' ? 'good' : deliverability === 'accept_all' ? 'warn' : deliverability === 'undeliverable' ? 'bad' : 'neutral';
  const type = lead.email_type ? ` · ${TYPE_WORDS[lead.email_type] ?? lead.email_type}` : '';
  const evidence = [lead.email_mx_host && `mail host ${lead.email_mx_host}`, lead.email_smtp_code && `reply ${lead.email_smtp_code}`].filter(Boolean).join(', ');
  const checked = lead.email_checked_at ? `, checked ${new Date(lead.email_checked_at).toLocaleString()}` : '';
  // The exports' word (contracts' vocabulary), so the table and the files say the same.
  return { label: verdictWord(deliverability), tone, hint: `${DELIVERABILITY_HINTS[deliverability] ?? ''}${type}${evidence ? ` (${evidence})` : ''}${checked}` };
}

export function phoneBadge(lead: Lead): Badge | undefined {
  if (!lead.phone || !lead.phone_type || lead.phone_type === 'unknown') return undefined;
  const label = verdictWord(lead.phone_type);
  return { label, tone: 'neutral', hint: `Phone type: ${lead.phone_type}` };
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
