import { verdictWord, type Lead } from '@leadforge/contracts';

const EMAIL_STATUS_HINTS: Record<string, string> = {
  valid: 'The domain takes mail and the address is not disposable',
  risky: 'Reaches a shared mailbox (info@, office@…) or a free-mail provider',
  invalid: 'The domain takes no mail, or the address is disposable',
  unknown: 'The mail check was not run or did not answer',
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
  // The exports' word (contracts' vocabulary), so the table and the files say the same.
  return { label: verdictWord(status), tone, hint: `${EMAIL_STATUS_HINTS[status] ?? ''}${role}` };
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
