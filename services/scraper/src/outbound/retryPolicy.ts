/** Statuses worth another attempt: the server said "later" or failed on its side. */
export const isRetryableStatus = (status: number): boolean => status === 429 || status === 502 || status === 503 || status === 504 || status === 500;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

