/**
 * Decodes Cloudflare's email obfuscation (`data-cfemail="…"`, `/cdn-cgi/l/email-protection#…`):
 * the first byte is a key XOR-ed into every following byte of the UTF-8 address.
 */
export function decodeCloudflareEmail(hex: string): string | undefined {
  const clean = hex.trim();
  if (clean.length < 4 || clean.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(clean)) return undefined;
  const bytes = Buffer.from(clean, 'hex');
  const key = bytes[0];
  const decoded = Buffer.from(bytes.subarray(1).map((byte) => byte ^ key)).toString('utf8');
  return decoded.includes('@') ? decoded : undefined;
}

const PROTECTION_PATH = /\/cdn-cgi\/l\/email-protection#([0-9a-f]+)/i;

/** The hex payload of a Cloudflare email-protection link, if the href is one. */
export function cloudflareHexOfHref(href: string): string | undefined {
  return PROTECTION_PATH.exec(href)?.[1];
}
