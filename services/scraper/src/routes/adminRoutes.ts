import {
  DEFAULT_PROXY_QUOTA, DecodoQuotaRequest, ErrorBody, MessageBody, ProxyStatsResponse, QuotaUpdatedResponse, UsageStatsQuery, UsageStatsResponse,
} from '@leadforge/contracts';
import type { App } from '@leadforge/kit/service';
import { readProxyStatus } from '../usage/proxyStatus.ts';
import type { ScraperRuntime } from '../runtime.ts';
import { clearUsage, readUsageStats } from '../usage/usageStats.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

/** The admin panel's Proxy Stats tab: proxy status, usage, quota, reset. Admins only, checked here too. */
export async function adminRoutes(app: App, rt: ScraperRuntime): Promise<void> {
  const { config, client, quota, usage } = rt;
  const db = rt.ctx.db;

  app.get('/api/admin/decodo-stats', { preHandler: app.requireAdmin, schema: { response: { 200: ProxyStatsResponse, ...errors } } }, async () =>
    readProxyStatus({
      client,
      fetchJson: client.fetchJson,
      proxyUrl: config.decodoProxyUrl,
      proxyCheckUrl: config.proxyCheckUrl,
      decodoApiBase: config.decodoApiBase,
      decodoApiKey: config.decodoApiKey,
    }));

  app.get('/api/admin/decodo-usage', {
    preHandler: app.requireAdmin,
    schema: { querystring: UsageStatsQuery, response: { 200: UsageStatsResponse, ...errors } },
  }, async (request) => {
    const { days } = request.query as UsageStatsQuery;
    // This replica's latest requests count too, not only what the last flush wrote.
    await usage.flush();
    return readUsageStats(db, await quota.remaining(), days);
  });

  app.post('/api/admin/decodo-quota', {
    preHandler: app.requireAdmin,
    schema: { body: DecodoQuotaRequest, response: { 200: QuotaUpdatedResponse, ...errors } },
  }, async (request) => {
    const { remaining_requests } = request.body as { remaining_requests: number };
    await quota.set(remaining_requests);
    await rt.saveQuota();
    request.log.info({ admin: request.principal?.id, remaining_requests }, 'proxy quota set');
    return { message: `Quota updated: ${remaining_requests.toLocaleString('en-US')} proxy requests remaining`, remaining_requests };
  });

  app.post('/api/admin/decodo-reset-stats', { preHandler: app.requireAdmin, schema: { response: { 200: MessageBody, ...errors } } }, async (request) => {
    usage.discardPending();
    await clearUsage(db);
    await quota.set(DEFAULT_PROXY_QUOTA);
    await rt.saveQuota();
    request.log.info({ admin: request.principal?.id }, 'proxy usage statistics reset');
    return { message: `Usage statistics reset; quota restored to ${DEFAULT_PROXY_QUOTA.toLocaleString('en-US')} requests` };
  });
}
