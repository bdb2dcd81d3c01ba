import { describe, expect, it } from 'vitest';
import { cloudflareHexOfHref, decodeCloudflareEmail } from '../../src/extract/cloudflareEmail.ts';
import { extractFromHtml } from './extractFromHtml.ts';

/** What Cloudflare's edge writes for an address: a random key byte, then the XOR-ed bytes. */
function encode(email: string, key: number): string {
  const bytes = [key, ...Buffer.from(email, 'utf8').map((byte) => byte ^ key)];
  return bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

describe('Cloudflare email decoding', () => {
  it('decodes the hex of data-cfemail with any key', () => {
    expect(decodeCloudflareEmail(encode('office@bakery.example.org', 0x5a))).toBe('office@bakery.example.org');
    expect(decodeCloudflareEmail(encode('zürich@café.ch', 0x13))).toBe('zürich@café.ch');
  });

  it('refuses payloads that are not an encoded address', () => {
    expect(decodeCloudflareEmail('zz12')).toBeUndefined();
    expect(decodeCloudflareEmail('8a')).toBeUndefined();
    expect(decodeCloudflareEmail(encode('no at sign here', 7))).toBeUndefined();
  });

  it('reads the payload of /cdn-cgi/l/email-protection links', () => {
    expect(cloudflareHexOfHref('/cdn-cgi/l/email-protection#8ae8ebf3')).toBe('8ae8ebf3');
    expect(cloudflareHexOfHref('/contact')).toBeUndefined();
  });

  it('extracts protected addresses from spans and links of a page', () => {
    const span = `<span class="__cf_email__" data-cfemail="${encode('info@bakery-muller.de', 0x31)}">[email&#160;protected]</span>`;
    const link = `<a href="/cdn-cgi/l/email-protection#${encode('orders@bakery-muller.de', 0x7f)}">write to us</a>`;
    expect(extractFromHtml(`<footer>${span} ${link}</footer>`).emails.sort()).toEqual(['info@bakery-muller.de', 'orders@bakery-muller.de']);
  });
});
