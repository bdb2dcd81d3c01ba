import type { Readable } from 'node:stream';
import { OutboundError } from '@leadforge/kit/outbound';

/** Reads a body up to `maxBytes`; a longer one is cut off and refused, never buffered whole. */
export async function readCapped(body: Readable, maxBytes: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.on('error', () => undefined);
      body.destroy();
      throw new OutboundError('too_large', `The response is larger than ${Math.round(maxBytes / 1024)} KB`, url);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

export type ContentKind = 'html' | 'json' | 'text' | 'other';

/** What a response carries, by its Content-Type, or by its first bytes when it declares none. */
export function contentKind(contentType: string | undefined, head: Buffer): ContentKind {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/')) return 'text';
  if (type) return 'other';
  if (head.subarray(0, 512).includes(0)) return 'other';
  const start = head.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head') || start.startsWith('<body')) return 'html';
  if (start.startsWith('{') || start.startsWith('[')) return 'json';
  return 'text';
}

/** Decodes text by the charset the header or an early <meta> declares; UTF-8 otherwise. */
export function decodeText(bytes: Buffer, contentType: string | undefined): string {
  const declared = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1]
    ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
