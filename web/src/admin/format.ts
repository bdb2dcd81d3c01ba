import type { ActivityEntry } from '@leadforge/contracts';

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat('en-US');

/** Dollars with two decimals: 1234.5 -> "$1,234.50". */
export const dollars = (amount: number): string => `${amount < 0 ? '-' : ''}$${money.format(Math.abs(amount))}`;

export const whole = (n: number): string => count.format(n);

/** The spec's purchase label: plan id with underscores as spaces, upper-cased ("cbc500_promo" -> "CBC500 PROMO"). */
export const planLabel = (planId: string): string => planId.replace(/_/g, ' ').toUpperCase();

/** The first 8 characters of an id, as the activity log shows users. */
export const shortId = (id: string): string => id.slice(0, 8);

export const dateTime = (iso: string): string => new Date(iso).toLocaleString();
export const date = (iso: string): string => new Date(iso).toLocaleDateString();

/** Total traffic: MB when over 1 MB, else KB. */
export const dataSize = (mb: number, kb: number): string => (mb > 1 ? `${mb.toFixed(2)} MB` : `${kb.toFixed(2)} KB`);

export const kbPerRequest = (kb: number, requests: number): string => (requests > 0 ? (kb / requests).toFixed(2) : '0.00');

/** The proxy account balance carries a note after ' - ' ("12.5 GB left - resets on the 1st"). */
export function splitBalance(balance: string): { amount: string; note: string } {
  const at = balance.indexOf(' - ');
  return at < 0 ? { amount: balance, note: '' } : { amount: balance.slice(0, at), note: balance.slice(at + 3) };
}

const ACTIVITY_LABELS: Record<string, string> = { scrape: 'Lead Generation', payment: 'Payment', refund: 'Refund', admin_action: 'Admin action' };

/** The spec's labels: scrapes are Lead Generation, the rest payments; refunds and admin actions are ours. */
export const activityLabel = (type: string): string => ACTIVITY_LABELS[type] ?? 'Payment';

const plural = (n: number, word: string) => `${whole(n)} ${word}${n === 1 ? '' : 's'}`;

/** 'N leads, N credits' for scrapes, '$amount, N credits' for payments. */
export function activitySummary(entry: Pick<ActivityEntry, 'type' | 'details'>): string {
  const d = entry.details;
  const n = (key: string) => Number(d[key] ?? 0);
  switch (entry.type) {
    case 'scrape': return `${plural(n('results_count'), 'lead')}, ${plural(n('credits_used'), 'credit')}`;
    case 'refund': return `-${dollars(n('amount'))}, ${plural(n('credits'), 'credit')} reversed`;
    case 'admin_action': {
      const target = d.target_name ? ` on ${String(d.target_name)}` : d.target_id ? ` on ${shortId(String(d.target_id))}` : '';
      return `${String(d.action)}${target}: ${String(d.result)}${d.detail ? ` (${String(d.detail)})` : ''}`;
    }
    default: return `${dollars(n('amount'))}, ${plural(n('credits'), 'credit')}`;
  }
}

/** The quota field: non-empty, a whole number, not negative; else null. */
export function parseQuota(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** A signed, non-zero whole number of credits ("+25", "-10", "5"); else null. */
export function parseCreditChange(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?\d{1,7}$/.test(t)) return null;
  const n = Number(t);
  return n === 0 ? null : n;
}

/** How long ago a moment was, roughly: "just now", "5 min ago", "3 h ago", "2 days ago". */
export function age(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${whole(Math.floor(hours / 24))} days ago`;
}
