export const PRODUCT_NAME = 'Leadforge';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** What a template says; the layout around it is the same for every email of every service. */
export interface Letter {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** Label / value lines, e.g. the items of a receipt. */
  details?: [string, string][];
  action?: { label: string; url: string };
  closing?: string;
}

/** What every template is given besides its data. */
export interface LetterSite {
  /** PUBLIC_URL: links in emails point there. */
  publicUrl: string;
}

/** A service's templates by kind (`receipt`, `password-reset`...): each turns its data into a letter. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each template declares its own data; `send` checks it against the template named
export type MailTemplates = Record<string, (data: any, site: LetterSite) => Letter>;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One layout for every email: a plain-text part and an HTML part saying the same. */
export function renderLetter(letter: Letter, { publicUrl }: LetterSite): RenderedMail {
  const text = [
    letter.greeting,
    '',
    ...letter.paragraphs.flatMap((p) => [p, '']),
    ...(letter.details ? [...letter.details.map(([label, value]) => `${label}: ${value}`), ''] : []),
    ...(letter.action ? [`${letter.action.label}: ${letter.action.url}`, ''] : []),
    ...(letter.closing ? [letter.closing, ''] : []),
    `— ${PRODUCT_NAME}`,
    publicUrl,
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
<p style="font-size: 13px; color: #6b7280;">— <a href="${escapeHtml(publicUrl)}">${PRODUCT_NAME}</a></p>
</div></body></html>`;
  return { subject: letter.subject, text, html };
}

/** A moment as emails show it: `2026-03-01 14:05 UTC`. */
export const utcMinute = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
