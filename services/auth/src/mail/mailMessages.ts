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
${letter.action ? `<p><a href="${escapeHtml(letter.action.url)}" style="display: inline-block; background: #2563eb; color: #fff; padding: 10px 18px; border-radius: 6px; text-decoration: none;">${escapeHtml(letter.action.label)}</a></p>
<p style="font-size: 13px; color: #6b7280;">Or paste this address into your browser: ${escapeHtml(letter.action.url)}</p>` : ''}
${letter.closing ? `<p>${escapeHtml(letter.closing)}</p>` : ''}
<p style="font-size: 13px; color: #6b7280;">— <a href="${escapeHtml(letter.publicUrl)}">${PRODUCT_NAME}</a></p>
</div></body></html>`;
  return { to: letter.to, kind: letter.kind, subject: letter.subject, text, html };
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

export function passwordChangedMail(to: string, name: string, publicUrl: string, how: 'reset' | 'changed'): MailMessage {
  return compose({
    to,
    kind: 'password-changed',
    subject: `Your ${PRODUCT_NAME} password was ${how === 'reset' ? 'reset' : 'changed'}`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `The password of your ${PRODUCT_NAME} account was just ${how === 'reset' ? 'reset through a link sent to this address' : 'changed from the account settings'}, and every other session was signed out.`,
      'If this was not you, reset your password now and contact us.',
    ],
    action: { label: 'Reset your password', url: `${publicUrl}/forgot-password` },
    publicUrl,
  });
}
