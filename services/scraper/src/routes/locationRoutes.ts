import { LOCATION_ROUTES } from '@leadforge/contracts';
import type { App } from '@leadforge/kit/service';
import { badGateway, handle, principalOf, rateLimited, serviceUnavailable } from '@leadforge/kit/http';
import { failureCodeOf } from '../places/placesFailure.ts';
import type { ScraperRuntime } from '../runtime.ts';

/** A type-ahead asks as the user types (debounced); this many a minute per user keeps Nominatim's policy. */
const LOOKUPS_PER_MINUTE = 60;
const ESTIMATES_PER_MINUTE = 20;
const MINUTE = 60_000;

/** GET /api/locations, /api/locations/estimate, /api/places-status: what a user sees before paying. */
export async function locationRoutes(app: App, rt: ScraperRuntime): Promise<void> {
  const perUser = (name: string, max: number) => rateLimited(rt.ctx.counters, { name, max, windowMs: MINUTE, key: (request) => principalOf(request).id });

  handle(app, LOCATION_ROUTES.search, { preHandler: perUser('locations', LOOKUPS_PER_MINUTE) }, async (request) => {
    try {
      return await rt.locations(request.query.q, AbortSignal.timeout(rt.config.http.totalTimeoutMs));
    } catch (error) {
      if (failureCodeOf(error) === 'provider_quota_exhausted') {
        throw serviceUnavailable('The place finder refuses more look-ups for now; type the place in full and search.', 'provider_quota_exhausted');
      }
      rt.ctx.log.warn({ err: error }, 'could not look up locations');
      throw badGateway('The place finder could not be reached; type the place in full, or try again in a moment.', 'provider_unreachable');
    }
  });

  handle(app, LOCATION_ROUTES.estimate, { preHandler: perUser('location-estimates', ESTIMATES_PER_MINUTE) }, async (request) => ({
    estimate: await rt.estimate(request.query.location, request.query.industry, AbortSignal.timeout(rt.config.http.totalTimeoutMs)),
  }));

  handle(app, LOCATION_ROUTES.placesStatus, async () => rt.placesStatus());
}
