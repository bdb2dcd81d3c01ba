import { DEFAULT_PROXY_QUOTA, SCRAPER_ADMIN_ROUTES } from '@leadforge/contracts';
import type { App } from '@leadforge/kit/service';
import { handle } from '@leadforge/kit/http';
import { readProxyStatus } from '../usage/proxyStatus.ts';
import type { ScraperRuntime } from '../runtime.ts';
import { clearUsage, readUsageStats } from '../usage/usageStats.ts';

/** The admin panel's Proxy Stats tab: proxy status, usage, quota, reset. Admins only, checked here too. */
export async function adminRoutes(app: App, rt: ScraperRuntime): Promise<void> {
  const { config, client, quota, usage } = rt;
  const db = rt.ctx.db;

  handle(app, SCRAPER_ADMIN_ROUTES.proxyStats, async () =>
    readProxyStatus({
      client,
      fetchJson: client.fetchJson,
      proxyUrl: config.decodoProxyUrl,
      proxyCheckUrl: config.proxyCheckUrl,
      decodoApiBase: config.decodoApiBase,
      decodoApiKey: config.decodoApiKey,
    }));

  handle(app, SCRAPER_ADMIN_ROUTES.usage, async (request) => {
    const { days } = request.query;
    // This replica's latest requests count too, not only what the last flush wrote.
    await usage.flush();
    return readUsageStats(db, await quota.remaining(), days);
  });

  handle(app, SCRAPER_ADMIN_ROUTES.setQuota, async (request) => {
    const { remaining_requests } = request.body;
    await quota.set(remaining_requests);
    await rt.saveQuota();
    request.log.info({ admin: request.principal?.id, remaining_requests }, 'proxy quota set');
    return { message: `Quota updated: ${remaining_requests.toLocaleString('en-US')} proxy requests remaining`, remaining_requests };
  });

  handle(app, SCRAPER_ADMIN_ROUTES.resetStats, async (request) => {
    usage.discardPending();
    await clearUsage(db);
    await quota.set(DEFAULT_PROXY_QUOTA);
    await rt.saveQuota();
    request.log.info({ admin: request.principal?.id }, 'proxy usage statistics reset');
    return { message: `Usage statistics reset; quota restored to ${DEFAULT_PROXY_QUOTA.toLocaleString('en-US')} requests` };
  });
}
