import { Type, type Static } from 'typebox';
import { declareRoutes } from '../routeDeclaration.ts';

export const ScrapeRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, errorMessage: { minLength: 'Please enter a URL to scrape', maxLength: 'The URL is too long (2048 characters at most)', type: 'url must be text' } }),
}, { additionalProperties: false });
export const ScrapeResponse = Type.Object({ url: Type.String(), scraped_at: Type.String(), data: Type.Unknown() });

export const DEFAULT_PROXY_QUOTA = 10000;

export const DecodoQuotaRequest = Type.Object({
  remaining_requests: Type.Integer({ minimum: 0, maximum: 1_000_000_000, errorMessage: 'remaining_requests must be a whole number from 0 to 1,000,000,000' }),
}, { additionalProperties: false });

/** GET /api/scrape/status (public): what the engine runs with, for the home page to claim only that. */
export const ScraperStatusResponse = Type.Object({
  /** The page fetches go through a configured proxy (DECODO_PROXY_URL). */
  proxy_configured: Type.Boolean(),
});
export type ScraperStatusResponse = Static<typeof ScraperStatusResponse>;

export const SCRAPER_STATUS_ROUTES = declareRoutes('scraper', {
  status: { method: 'GET', path: '/api/scrape/status', access: 'public', schema: { response: { 200: ScraperStatusResponse } } },
});
