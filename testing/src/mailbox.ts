import fs from 'node:fs/promises';
import path from 'node:path';
import { waitFor } from './waitFor.ts';

/** An email as written to `$DATA_DIR/mail/` by the `.eml` transport, decoded enough for tests. */
export interface ReadMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function splitHeaders(part: string): { headers: Record<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = part.slice(0, at).replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: part.slice(at).replace(/^\r?\n\r?\n/, '') };
}

function decodePart(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  return body;
}

export function parseEml(file: string, raw: string): ReadMail {
  const { headers, body } = splitHeaders(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  let text = '';
  let html = '';
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const part of parts) {
    const parsed = splitHeaders(part.replace(/^\r?\n/, ''));
    const decoded = decodePart(parsed.headers, parsed.body);
    if ((parsed.headers['content-type'] ?? '').startsWith('text/html')) html = decoded;
    else text = decoded;
  }
  return { file, to: headers.to ?? '', subject: headers.subject ?? '', text, html, links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [] };
}

/** Every email in the folder, oldest first. */
export async function readMailbox(dir: string): Promise<ReadMail[]> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (n) => parseEml(path.join(dir, n), await fs.readFile(path.join(dir, n), 'utf8'))));
}

/** Waits for the newest email to `to` whose subject matches (emails are sent in the background). */
export async function waitForMail(dir: string, to: string, subject: RegExp, timeoutMs = 10_000): Promise<ReadMail> {
  const newest = async () => (await readMailbox(dir)).filter((m) => m.to.includes(to) && subject.test(m.subject)).at(-1);
  return (await waitFor(newest, { timeoutMs, intervalMs: 100, what: `an email to ${to} matching ${subject} in ${dir}` }))!;
}
