import { SCRAPER_STATUS_ROUTES } from '@leadforge/contracts';
import type { App } from '@leadforge/kit/service';
import { handle } from '@leadforge/kit/http';
import type { ScraperRuntime } from '../runtime.ts';

/** GET /api/scrape/status: whether page fetches go through a proxy, so the home page mentions one only then. */
export async function statusRoute(app: App, rt: ScraperRuntime): Promise<void> {
  const proxyConfigured = Boolean(rt.config.decodoProxyUrl);
  handle(app, SCRAPER_STATUS_ROUTES.status, async () => ({ proxy_configured: proxyConfigured }));
}
