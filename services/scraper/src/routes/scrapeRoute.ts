import { SCRAPER_ADMIN_ROUTES } from '@leadforge/contracts';
import type { App } from '@leadforge/kit/service';
import { badGateway, badRequest, handle, HttpError } from '@leadforge/kit/http';
import { OutboundError } from '@leadforge/kit/outbound';
import { PageGivenUp } from '../crawl/pageGivenUp.ts';
import type { ScraperRuntime } from '../runtime.ts';
import { scrapeData } from '../crawl/scrapeResult.ts';

/** The answer an outbound failure becomes: the admin sees why, never a 500. */
function answerFor(error: OutboundError): HttpError {
  switch (error.code) {
    case 'bad_url':
      return badRequest(error.message, 'bad_url');
    case 'blocked_address':
      return badRequest(`This URL is not allowed: ${error.message.replace(/^Refused to fetch /, '')}`, 'blocked_address');
    case 'unsupported_content':
    case 'too_large':
      return new HttpError(422, error.message, error.code);
    case 'quota_exhausted':
      return new HttpError(429, 'The proxy request quota is exhausted; raise it in the Proxy Stats tab', 'quota_exhausted');
    case 'timeout':
      return new HttpError(504, error.message, 'timeout');
    default:
      return badGateway(`Could not scrape the URL: ${error.message}`, error.code);
  }
}

/** POST /api/scrape: an admin's test fetch, through the same guarded, proxied client as the crawler. */
export async function scrapeRoute(app: App, rt: ScraperRuntime): Promise<void> {
  handle(app, SCRAPER_ADMIN_ROUTES.scrape, async (request) => {
    const raw = request.body.url.trim();
    if (!raw) throw badRequest('Please enter a URL to scrape');
    // Admins type "example.com"; anything with a scheme is taken as written and checked.
    const url = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
    try {
      const response = await rt.client.scrape(url, AbortSignal.timeout(rt.config.http.totalTimeoutMs * 2));
      return { url: response.url, scraped_at: new Date().toISOString(), data: await scrapeData(response, rt.reader) };
    } catch (error) {
      if (error instanceof OutboundError) throw answerFor(error);
      // The page arrived but reading it was given up (nested too deep, over the time budget).
      if (error instanceof PageGivenUp) throw new HttpError(422, error.message, 'page_given_up');
      throw error;
    }
  });
}
