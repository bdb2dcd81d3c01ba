/** A website as a link target only when it is an http(s) URL: scraped data never becomes javascript: or data: links. */
export function httpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** `mailto:` only for something shaped like one address (no headers smuggled in with ? or &). */
export const mailtoHref = (email: string): string | null => (/^[^\s@?&<>"]+@[^\s@?&<>"]+$/.test(email) ? `mailto:${email}` : null);

/** `tel:` with only the characters a dialler uses. */
export function telHref(phone: string): string | null {
  const digits = phone.replace(/[^\d+]/g, '');
  return /\d{3,}/.test(digits) ? `tel:${digits}` : null;
}
