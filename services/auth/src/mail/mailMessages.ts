import { countOf, countOfIndustry } from '@leadforge/contracts';
import type { MailMessage } from './mailTransport.ts';

export const PRODUCT_NAME = 'Leadforge';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

interface Letter {
  to: string;
  kind: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** Label / value lines, e.g. the items of a receipt. */
  details?: [string, string][];
  action?: { label: string; url: string };
  closing?: string;
  publicUrl: string;
}

/** One layout for every email: a plain-text part and an HTML part saying the same. */
function compose(letter: Letter): MailMessage {
  const text = [
    letter.greeting,
    '',
    ...letter.paragraphs.flatMap((p) => [p, '']),
    ...(letter.details ? [...letter.details.map(([label, value]) => `${label}: ${value}`), ''] : []),
    ...(letter.action ? [`${letter.action.label}: ${letter.action.url}`, ''] : []),
    ...(letter.closing ? [letter.closing, ''] : []),
    `— ${PRODUCT_NAME}`,
    letter.publicUrl,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: -apple-system, Segoe UI, Roboto, sans-serif; color: #1f2937; line-height: 1.5;">
<div style="max-width: 560px; margin: 0 auto; padding: 24px;">
<p style="font-size: 20px; font-weight: 700; color: #2563eb;">${PRODUCT_NAME}</p>
<p>${escapeHtml(letter.greeting)}</p>
${letter.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${letter.details ? `<table style="border-collapse: collapse; margin: 8px 0 16px;">${letter.details.map(([label, value]) => `<tr><td style="padding: 4px 16px 4px 0; color: #6b7280;">${escapeHtml(label)}</td><td style="padding: 4px 0; font-weight: 600;">${escapeHtml(value)}</td></tr>`).join('')}</table>` : ''}
${letter.action ? `<p><a href="${escapeHtml(letter.action.url)}" style="display: inline-block; background: #2563eb; color: #fff; padding: 10px 18px; border-radius: 6px; text-decoration: none;">${escapeHtml(letter.action.label)}</a></p>
<p style="font-size: 13px; color: #6b7280;">Or paste this address into your browser: ${escapeHtml(letter.action.url)}</p>` : ''}
${letter.closing ? `<p>${escapeHtml(letter.closing)}</p>` : ''}
<p style="font-size: 13px; color: #6b7280;">— <a href="${escapeHtml(letter.publicUrl)}">${PRODUCT_NAME}</a></p>
</div></body></html>`;
  return { to: letter.to, kind: letter.kind, subject: letter.subject, text, html };
}

export function emailVerificationMail(to: string, name: string, publicUrl: string, token: string): MailMessage {
  return compose({
    to,
    kind: 'email-verification',
    subject: `Confirm your ${PRODUCT_NAME} email address`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Welcome to ${PRODUCT_NAME}. Please confirm that this address is yours: the link below works for 48 hours.`,
      'If you did not create an account, ignore this email.',
    ],
    action: { label: 'Confirm my email address', url: `${publicUrl}/verify-email?token=${encodeURIComponent(token)}` },
    publicUrl,
  });
}

export function optOutConfirmationMail(to: string, publicUrl: string, confirmUrl: string): MailMessage {
  return compose({
    to,
    kind: 'opt-out-confirmation',
    subject: `Confirm that ${PRODUCT_NAME} should leave out your email address`,
    greeting: 'Hello,',
    paragraphs: [
      `Someone asked ${PRODUCT_NAME} to leave this email address out of the business contacts it finds.`,
      'If it was you, confirm with the link below (it works for 48 hours): the address is then removed from every search, past and future.',
      'If it was not you, ignore this email: nothing changes.',
    ],
    action: { label: 'Confirm the opt-out', url: confirmUrl },
    publicUrl,
  });
}

export function passwordResetMail(to: string, name: string, publicUrl: string, token: string): MailMessage {
  return compose({
    to,
    kind: 'password-reset',
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Someone (hopefully you) asked to reset the password of your ${PRODUCT_NAME} account.`,
      'The link below works once, for one hour. If you did not ask for it, ignore this email: your password stays as it is.',
    ],
    action: { label: 'Choose a new password', url: `${publicUrl}/reset-password?token=${encodeURIComponent(token)}` },
    publicUrl,
  });
}

const apiKeyCount = (n: number) => `${n} API key${n === 1 ? '' : 's'}`;

/** What a password change did to the account's API keys, in the confirmation email's words. */
function apiKeysParagraph(apiKeys: { revoked: number; kept: number }): string {
  if (apiKeys.revoked > 0) {
    return `${apiKeyCount(apiKeys.revoked)} ${apiKeys.revoked === 1 ? 'was' : 'were'} revoked: scripts and integrations using ${apiKeys.revoked === 1 ? 'it' : 'them'} need a new key from the Developers page.`;
  }
  if (apiKeys.kept > 0) return `No API key was revoked: you chose to keep your ${apiKeyCount(apiKeys.kept)}.`;
  return 'No API key was revoked: the account had none.';
}

export function passwordChangedMail(
  to: string, name: string, publicUrl: string, how: 'reset' | 'changed', apiKeys: { revoked: number; kept: number },
): MailMessage {
  return compose({
    to,
    kind: 'password-changed',
    subject: `Your ${PRODUCT_NAME} password was ${how === 'reset' ? 'reset' : 'changed'}`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `The password of your ${PRODUCT_NAME} account was just ${how === 'reset' ? 'reset through a link sent to this address' : 'changed from the account settings'}, and every other session was signed out.`,
      apiKeysParagraph(apiKeys),
      'If this was not you, reset your password now and contact us.',
    ],
    action: { label: 'Reset your password', url: `${publicUrl}/forgot-password` },
    publicUrl,
  });
}

export interface Receipt {
  purchaseId: string;
  planName: string;
  credits: number;
  amount: number;
  currency: string;
  completedAt: string;
}

function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return amount.toFixed(2);
  }
}

const utcMinute = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function receiptMail(to: string, name: string, publicUrl: string, receipt: Receipt): MailMessage {
  const amount = formatAmount(receipt.amount, receipt.currency);
  return compose({
    to,
    kind: 'receipt',
    subject: `Your ${PRODUCT_NAME} receipt: ${receipt.credits.toLocaleString('en-US')} credits`,
    greeting: `Hello ${name},`,
    paragraphs: [`Thank you for your purchase. The credits are in your account and ready to use.`],
    details: [
      ['Plan', receipt.planName],
      ['Credits', receipt.credits.toLocaleString('en-US')],
      ['Amount paid', `${amount} ${receipt.currency}`],
      ['Date', utcMinute(receipt.completedAt)],
      ['Reference', receipt.purchaseId],
    ],
    action: { label: 'See your credits and purchases', url: `${publicUrl}/credits` },
    closing: 'Keep this email as your receipt.',
    publicUrl,
  });
}

export function accountDeletedMail(to: string, name: string, publicUrl: string): MailMessage {
  return compose({
    to,
    kind: 'account-deleted',
    subject: `Your ${PRODUCT_NAME} account was deleted`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Your ${PRODUCT_NAME} account was deleted at your request: your name and this address were removed from it, remaining credits were forfeited and every session was signed out.`,
      'If this was not you, reply to this email or contact us at once.',
    ],
    closing: 'Thank you for having used Leadforge.',
    publicUrl,
  });
}

export interface RefundNotice {
  purchaseId: string;
  amount: number;
  currency: string;
  creditsReversed: number;
  refundedAt: string;
}

export function refundMail(to: string, name: string, publicUrl: string, refund: RefundNotice): MailMessage {
  const amount = formatAmount(refund.amount, refund.currency);
  return compose({
    to,
    kind: 'refund',
    subject: `Your ${PRODUCT_NAME} refund: ${amount}`,
    greeting: `Hello ${name},`,
    paragraphs: [
      'A purchase of yours was refunded. The money goes back to the PayPal account or card you paid with; your bank may take a few days to show it.',
      'The credits of that purchase were taken back from your balance (those already spent could not be).',
    ],
    details: [
      ['Amount refunded', `${amount} ${refund.currency}`],
      ['Credits taken back', refund.creditsReversed.toLocaleString('en-US')],
      ['Date', utcMinute(refund.refundedAt)],
      ['Reference', refund.purchaseId],
    ],
    action: { label: 'See your credits and purchases', url: `${publicUrl}/credits` },
    publicUrl,
  });
}

export function searchReadyMail(to: string, name: string, publicUrl: string, search: { resultsCount: number; finishedAt: string }): MailMessage {
  const leads = countOf(search.resultsCount, 'lead');
  return compose({
    to,
    kind: 'search-ready',
    subject: `Your leads are ready: ${leads}`,
    greeting: `Hello ${name},`,
    paragraphs: [`Your lead search finished at ${utcMinute(search.finishedAt)} with ${leads}. They are in your search history, ready to view and export.`],
    action: { label: 'See your leads', url: `${publicUrl}/dashboard` },
    closing: 'You get this email when a search takes more than a minute. You can turn it off in your account settings.',
    publicUrl,
  });
}

export interface MonitorRunNotice {
  industry: string;
  location: string;
  newLeads: number;
  searchId: string;
}

/** A monitor's run found businesses the user never had: "3 new dentists in Würzburg", linking the run's leads. */
export function monitorNewLeadsMail(to: string, name: string, publicUrl: string, run: MonitorRunNotice): MailMessage {
  const what = `${countOfIndustry(run.newLeads, run.industry.toLowerCase(), 'new')} in ${run.location}`;
  return compose({
    to,
    kind: 'monitor-new-leads',
    subject: what,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Your monitor for ${run.industry} in ${run.location} found ${countOf(run.newLeads, 'business')} you never had before (1 credit each).`,
    ],
    action: { label: 'See the new leads', url: `${publicUrl}/monitors?run=${encodeURIComponent(run.searchId)}` },
    closing: 'You get this email because the monitor has email notices on. You can turn them off on the Monitors page.',
    publicUrl,
  });
}

/** A monitor's run could not start for want of credits: nothing charged, the monitor stays on. */
export function monitorNoCreditsMail(to: string, name: string, publicUrl: string, run: Pick<MonitorRunNotice, 'industry' | 'location'>): MailMessage {
  return compose({
    to,
    kind: 'monitor-no-credits',
    subject: `Your monitor for ${run.industry} in ${run.location} could not run: no credits left`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Your monitor for ${run.industry} in ${run.location} was due to run, but your balance has no credits left, so it did not run and nothing was charged.`,
      'The monitor stays on: it runs again at its next time, or at once when you press "Run now" after buying credits.',
    ],
    action: { label: 'Buy credits', url: `${publicUrl}/credits` },
    publicUrl,
  });
}
