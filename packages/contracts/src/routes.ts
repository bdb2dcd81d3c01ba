/**
 * The route table: every public API path, the service that owns it, who may call it and its schemas,
 * made of the declarations beside each API's schemas (`api/*.ts`). The services register their
 * handlers against these declarations (the kit's `handle`); the local gateway, the Envoy config, the
 * OpenAPI document and the authorisation tests are all derived from the table.
 */
import { ADMIN_ROUTES } from './api/admin.ts';
import { AFFILIATE_ROUTES } from './api/affiliate.ts';
import { API_DOCS_ROUTES } from './api/apiDocs.ts';
import { API_KEY_ROUTES } from './api/apiKeys.ts';
import { AUTH_ROUTES } from './api/auth.ts';
import { CONTACT_ROUTES } from './api/contact.ts';
import { LEAD_EXPORT_ROUTES } from './api/leadExports.ts';
import { LEAD_SEARCH_ROUTES } from './api/leads.ts';
import { LOCATION_ROUTES } from './api/locations.ts';
import { MONITOR_ROUTES } from './api/monitors.ts';
import { OPT_OUT_ROUTES } from './api/optOut.ts';
import { PARKED_WORK_ROUTES } from './api/parkedWork.ts';
import { PAYMENT_ROUTES } from './api/payments.ts';
import { SCRAPER_STATUS_ROUTES } from './api/scraper.ts';
import { SCRAPER_ADMIN_ROUTES } from './api/scraperAdmin.ts';
import { WEBHOOK_ROUTES } from './api/webhooks.ts';
import type { RouteDeclaration, RouteEntry } from './routeDeclaration.ts';

export * from './routeDeclaration.ts';

export const ROUTES: readonly RouteDeclaration[] = [
  AUTH_ROUTES, API_KEY_ROUTES, API_DOCS_ROUTES,
  PAYMENT_ROUTES,
  LEAD_SEARCH_ROUTES, LEAD_EXPORT_ROUTES, OPT_OUT_ROUTES, WEBHOOK_ROUTES, MONITOR_ROUTES,
  SCRAPER_ADMIN_ROUTES, LOCATION_ROUTES, SCRAPER_STATUS_ROUTES,
  AFFILIATE_ROUTES,
  CONTACT_ROUTES,
  ADMIN_ROUTES, PARKED_WORK_ROUTES,
].flatMap((group): RouteDeclaration[] => Object.values(group));

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
