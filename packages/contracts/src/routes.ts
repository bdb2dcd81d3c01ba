/**
 * The route table: every public API path, the service that owns it and who may call it.
 * The local gateway, the Envoy config and the authorisation tests are all derived from it.
 */
export type ServiceName = 'auth' | 'billing' | 'leads' | 'scraper' | 'affiliate' | 'contact' | 'admin';
export type Access = 'public' | 'user' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteEntry {
  method: Method;
  /** Path with `:param` placeholders, as fastify writes them. */
  path: string;
  service: ServiceName;
  access: Access;
  /** Long-running or streaming routes get longer upstream timeouts. */
  streaming?: boolean;
  /**
   * A user route a machine may call with `X-API-Key` instead of a session (docs/public-api.md);
   * never set on admin routes, key management or payments.
   */
  apiKey?: boolean;
}

export const SERVICES: readonly ServiceName[] = ['auth', 'billing', 'leads', 'scraper', 'affiliate', 'contact', 'admin'];

export const ROUTES: readonly RouteEntry[] = [
  { method: 'POST', path: '/api/auth/register', service: 'auth', access: 'public' },
  { method: 'POST', path: '/api/auth/login', service: 'auth', access: 'public' },
  { method: 'GET', path: '/api/auth/me', service: 'auth', access: 'user', apiKey: true },
  { method: 'PATCH', path: '/api/auth/me', service: 'auth', access: 'user' },
  { method: 'POST', path: '/api/auth/password', service: 'auth', access: 'user' },
  { method: 'GET', path: '/api/account/export', service: 'auth', access: 'user' },
  { method: 'DELETE', path: '/api/account', service: 'auth', access: 'user' },
  { method: 'POST', path: '/api/auth/password-reset', service: 'auth', access: 'public' },
  { method: 'POST', path: '/api/auth/password-reset/confirm', service: 'auth', access: 'public' },
  { method: 'POST', path: '/api/api-keys', service: 'auth', access: 'user' },
  { method: 'GET', path: '/api/api-keys', service: 'auth', access: 'user' },
  { method: 'DELETE', path: '/api/api-keys/:id', service: 'auth', access: 'user' },
  { method: 'GET', path: '/api/openapi.json', service: 'auth', access: 'public' },
  { method: 'GET', path: '/api/docs', service: 'auth', access: 'public' },
  { method: 'GET', path: '/api/docs/:file', service: 'auth', access: 'public' },

  { method: 'GET', path: '/api/payments/config', service: 'billing', access: 'public' },
  { method: 'GET', path: '/api/payments/history', service: 'billing', access: 'user' },
  { method: 'POST', path: '/api/payments/create', service: 'billing', access: 'user' },
  { method: 'POST', path: '/api/payments/execute', service: 'billing', access: 'user' },
  { method: 'POST', path: '/api/payments/create-order', service: 'billing', access: 'public' },
  { method: 'POST', path: '/api/payments/complete-payment', service: 'billing', access: 'public' },
  { method: 'POST', path: '/api/payments/webhook', service: 'billing', access: 'public' },
  { method: 'GET', path: '/api/payments/promo-orders/:orderId', service: 'billing', access: 'user' },
  { method: 'POST', path: '/api/payments/test-checkout/:orderId/approve', service: 'billing', access: 'public' },
  { method: 'GET', path: '/api/admin/paypal-config', service: 'billing', access: 'admin' },
  { method: 'POST', path: '/api/admin/paypal-config', service: 'billing', access: 'admin' },

  { method: 'POST', path: '/api/generate-leads', service: 'leads', access: 'user', streaming: true, apiKey: true },
  { method: 'POST', path: '/api/lead-searches', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/lead-searches', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/lead-searches/:id', service: 'leads', access: 'user', apiKey: true },
  { method: 'DELETE', path: '/api/lead-searches/:id', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/lead-searches/:id/events', service: 'leads', access: 'user', streaming: true, apiKey: true },
  { method: 'GET', path: '/api/lead-searches/:id/export.csv', service: 'leads', access: 'user', streaming: true, apiKey: true },
  { method: 'POST', path: '/api/opt-out', service: 'leads', access: 'public' },
  { method: 'GET', path: '/api/admin/opt-outs', service: 'leads', access: 'admin' },
  { method: 'GET', path: '/api/admin/opt-outs/:id/preview', service: 'leads', access: 'admin' },
  { method: 'POST', path: '/api/admin/opt-outs/:id/approve', service: 'leads', access: 'admin' },
  { method: 'POST', path: '/api/admin/opt-outs/:id/reject', service: 'leads', access: 'admin' },
  { method: 'DELETE', path: '/api/admin/opt-outs/:id', service: 'leads', access: 'admin' },
  { method: 'GET', path: '/api/lead-searches/:id/export.json', service: 'leads', access: 'user', streaming: true, apiKey: true },
  { method: 'GET', path: '/api/lead-searches/:id/export.xlsx', service: 'leads', access: 'user', streaming: true, apiKey: true },
  { method: 'POST', path: '/api/webhooks', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/webhooks', service: 'leads', access: 'user', apiKey: true },
  { method: 'DELETE', path: '/api/webhooks/:id', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/webhooks/:id/deliveries', service: 'leads', access: 'user', apiKey: true },
  { method: 'POST', path: '/api/webhooks/:id/test', service: 'leads', access: 'user', apiKey: true },
  { method: 'POST', path: '/api/monitors', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/monitors', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/monitors/:id', service: 'leads', access: 'user', apiKey: true },
  { method: 'PATCH', path: '/api/monitors/:id', service: 'leads', access: 'user', apiKey: true },
  { method: 'DELETE', path: '/api/monitors/:id', service: 'leads', access: 'user', apiKey: true },
  { method: 'POST', path: '/api/monitors/:id/run', service: 'leads', access: 'user', apiKey: true },
  { method: 'GET', path: '/api/monitors/:id/runs', service: 'leads', access: 'user', apiKey: true },

  { method: 'POST', path: '/api/scrape', service: 'scraper', access: 'admin' },
  { method: 'GET', path: '/api/admin/decodo-stats', service: 'scraper', access: 'admin' },
  { method: 'GET', path: '/api/admin/decodo-usage', service: 'scraper', access: 'admin' },
  { method: 'POST', path: '/api/admin/decodo-quota', service: 'scraper', access: 'admin' },
  { method: 'POST', path: '/api/admin/decodo-reset-stats', service: 'scraper', access: 'admin' },

  { method: 'GET', path: '/api/affiliate/stats', service: 'affiliate', access: 'user' },
  { method: 'GET', path: '/api/affiliate/commissions', service: 'affiliate', access: 'user' },
  { method: 'POST', path: '/api/affiliate/apply', service: 'affiliate', access: 'public' },
  { method: 'POST', path: '/api/affiliate/referral-visits', service: 'affiliate', access: 'public' },
  { method: 'GET', path: '/api/admin/affiliate-payouts', service: 'affiliate', access: 'admin' },
  { method: 'POST', path: '/api/admin/affiliate-payouts', service: 'affiliate', access: 'admin' },
  { method: 'PUT', path: '/api/affiliate/payout-email', service: 'affiliate', access: 'user' },
  { method: 'GET', path: '/api/admin/affiliate-applications', service: 'affiliate', access: 'admin' },

  { method: 'POST', path: '/api/contact', service: 'contact', access: 'public' },
  { method: 'GET', path: '/api/contact/config', service: 'contact', access: 'public' },

  { method: 'GET', path: '/api/admin/enhanced-stats', service: 'admin', access: 'admin' },
  { method: 'GET', path: '/api/admin/activity-logs', service: 'admin', access: 'admin' },
  { method: 'GET', path: '/api/admin/users/:id', service: 'admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/update-credits', service: 'admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/user-action', service: 'admin', access: 'admin' },
];

/** Matches a concrete request path against a route pattern (`:param` segments match one segment). */
export function matchRoute(method: string, path: string, routes: readonly RouteEntry[] = ROUTES): RouteEntry | undefined {
  const segments = path.split('/');
  return routes.find((route) => {
    if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) return false;
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) return false;
    return pattern.every((part, i) => part.startsWith(':') ? segments[i].length > 0 : part === segments[i]);
  });
}

/** Whether any route (of any method) has this path; tells 404 from 405. */
export function pathExists(path: string, routes: readonly RouteEntry[] = ROUTES): boolean {
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].some((m) => matchRoute(m, path, routes));
}
