const DEFAULT_TARGET = '/dashboard';
const AUTH_PAGES = new Set(['/login', '/register']);

interface FromLocation {
  pathname: string;
  search?: string;
  hash?: string;
}

function isFromLocation(value: unknown): value is FromLocation {
  return typeof value === 'object' && value !== null && typeof (value as FromLocation).pathname === 'string';
}

/** Where to send a user after login: the page the guard sent them from, else the dashboard. */
export function redirectTarget(locationState: unknown): string {
  const from = typeof locationState === 'object' && locationState !== null ? (locationState as { from?: unknown }).from : undefined;
  if (!isFromLocation(from)) return DEFAULT_TARGET;
  const { pathname, search = '', hash = '' } = from;
  // Only same-site paths; `//host` would be read as another origin.
  if (!pathname.startsWith('/') || pathname.startsWith('//') || AUTH_PAGES.has(pathname)) return DEFAULT_TARGET;
  return `${pathname}${search}${hash}`;
}
