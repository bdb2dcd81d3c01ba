const EMAIL = /^[a-z0-9_%+-]+(?:\.[a-z0-9_%+-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$/;

/** A syntactically valid, lower-cased address from a raw mailto / text / JSON-LD value, or undefined. */
export function normaliseEmail(raw: string): string | undefined {
  const email = raw
    .trim()
    .replace(/^mailto:/i, '')
    .replace(/^[<("'\s]+|[>)"'\s.,;:!?]+$/g, '')
    .toLowerCase();
  if (email.length > 254 || email.split('@')[0].length > 64) return undefined;
  return EMAIL.test(email) ? email : undefined;
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}
