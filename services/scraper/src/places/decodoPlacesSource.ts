import type { GeocodedArea } from './nominatimGeocoder.ts';
import type { FetchJson, Place, PlacesSource } from './types.ts';

export interface DecodoSourceConfig {
  fetchJson: FetchJson;
  apiBase: string;
  /** The Web Scraping API's Basic authentication token (base64 of user:password). */
  token: string;
}

const MAX_PAGES = 10;
/** Google Maps lists 20 places a page. */
const MAPS_PAGE_SIZE = 20;

interface DecodoMapsItem {
  pos?: number;
  title?: string;
  name?: string;
  address?: string;
  phone?: string;
  website?: string;
  links?: { website?: string };
  place_id?: string;
  data_id?: string;
  cid?: string;
  category?: string;
  categories?: string[];
  gps_coordinates?: { latitude?: number; longitude?: number };
  latitude?: number;
  longitude?: number;
}

interface DecodoAnswer {
  results?: { content?: { results?: { organic?: DecodoMapsItem[]; results?: { organic?: DecodoMapsItem[] } } } }[];
  message?: string;
}

/** Parsed Google Maps results of one answer; the parser nests them one level deeper on some targets. */
function itemsOf(answer: DecodoAnswer): DecodoMapsItem[] {
  return (answer.results ?? []).flatMap((result) => {
    const parsed = result.content?.results;
    return parsed?.results?.organic ?? parsed?.organic ?? [];
  });
}

function decodoItemToPlace(item: DecodoMapsItem, area: GeocodedArea): Place | undefined {
  const name = item.title ?? item.name;
  const placeId = item.place_id ?? item.data_id ?? item.cid;
  if (!name || !placeId) return undefined;
  const categories = item.categories ?? (item.category ? [item.category] : undefined);
  return {
    placeId,
    source: 'decodo',
    name,
    website: item.website ?? item.links?.website,
    phone: item.phone,
    address: item.address,
    city: area.city,
    country: area.country,
    lat: item.gps_coordinates?.latitude ?? item.latitude,
    lon: item.gps_coordinates?.longitude ?? item.longitude,
    categories,
  };
}

/**
 * Decodo Web Scraping API, target google_maps with parsing, page after page (one batch each) of
 * "<industry> <area name>"; the area's boundary is applied to what it answers, like every source's.
 * Decodo documents no way to hold google_maps to a rectangle or a point and zoom (its `geo` is where
 * the search is made from), so the area is one cell, searched by name (docs/lead-engine.md). Maps
 * cuts a query's list at a cap it does not state: only a list that ran out on a short page is the
 * whole answer; one that ended on a full page (nothing, or the same places, after it) may have been
 * cut, and the cell counts as saturated.
 */
export function createDecodoPlacesSource(config: DecodoSourceConfig): PlacesSource {
  const url = `${config.apiBase.replace(/\/$/, '')}/v2/scrape`;
  return {
    name: 'decodo',
    async *searchArea(area, query, ctx, report) {
      const seen = new Set<string>();
      let lastListed = 0;
      for (let page = 1; page <= MAX_PAGES && seen.size < query.limit; page += 1) {
        if (ctx.takeRequest?.('decodo') === false) return;
        const answer = (await config.fetchJson(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Basic ${config.token}` },
          body: JSON.stringify({
            target: 'google_maps',
            query: `${query.industry} ${query.location}`,
            parse: true,
            page_from: page,
          }),
          signal: ctx.signal,
        })) as DecodoAnswer | string;
        if (typeof answer === 'string' || !Array.isArray(answer.results)) {
          const detail = typeof answer === 'string' ? answer.slice(0, 200) : (answer.message ?? 'answer without results');
          throw new Error(`Decodo Web Scraping API error: ${detail}`);
        }
        if (page === 1) report.cellsSearched++;
        const places = itemsOf(answer).flatMap((item) => decodoItemToPlace(item, area) ?? []);
        const fresh = places.filter((place) => !seen.has(place.placeId));
        if (fresh.length === 0) {
          if (lastListed < MAPS_PAGE_SIZE) report.complete = true;
          else report.cellsSaturated++;
          return;
        }
        lastListed = places.length;
        for (const place of fresh) seen.add(place.placeId);
        yield fresh;
      }
    },
  };
}
