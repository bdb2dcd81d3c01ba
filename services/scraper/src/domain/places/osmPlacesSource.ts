import { createNominatimGeocoder } from './nominatimGeocoder.ts';
import { osmElementToPlace, type OsmElement } from './osmElementToPlace.ts';
import { nameWordOf, osmTagsOf } from './osmIndustryTags.ts';
import { overpassQuery } from './overpassQuery.ts';
import type { FetchJson, Place, PlacesSource } from './types.ts';

export interface OsmSourceConfig {
  fetchJson: FetchJson;
  nominatimUrl: string;
  overpassUrl: string;
}

// Overpass returns elements in id order; asking for more than needed lets the ones that can be
// contacted come first.
const OVERFETCH = 3;
const MAX_ELEMENTS = 1000;

// NUL, other control characters than whitespace, or undecodable bytes: not a text answer.
const BINARY = /[\u0000-\u0008\u000e-\u001f\ufffd]/;

/**
 * The message of an Overpass error answer: an HTML page, or JSON whose "remark" reports a runtime
 * error. A body that is neither JSON nor a text page (binary, or JSON cut short) is an error too.
 */
function overpassError(body: unknown): string | undefined {
  if (typeof body === 'string') {
    if (BINARY.test(body)) return 'the answer is binary, not JSON';
    if (/^\s*[[{]/.test(body)) return 'the answer is incomplete JSON (cut short)';
    const message = /<strong[^>]*>\s*Error\s*<\/strong>\s*:?\s*([\s\S]*?)<\/p>/i.exec(body)?.[1];
    const text = (message ?? body.replace(/<[^>]+>/g, ' ')).replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    return text.replace(/\s+/g, ' ').trim().slice(0, 500) || 'empty answer';
  }
  const remark = (body as { remark?: unknown } | null)?.remark;
  if (typeof remark === 'string' && /error/i.test(remark)) return remark;
  if (!Array.isArray((body as { elements?: unknown } | null)?.elements)) return 'answer without elements';
  return undefined;
}

const contactRoutes = (place: Place): number => [place.website, place.phone, place.email].filter(Boolean).length;

/** OpenStreetMap: Nominatim finds the area, Overpass the businesses in it that match the industry. */
export function createOsmPlacesSource(config: OsmSourceConfig): PlacesSource {
  const geocode = createNominatimGeocoder(config.fetchJson, config.nominatimUrl);
  return {
    async *search(query, ctx) {
      const area = await geocode(query.location, ctx);
      const ql = overpassQuery(area, osmTagsOf(query.industry), nameWordOf(query.industry), Math.min(query.limit * OVERFETCH, MAX_ELEMENTS));
      const body = await config.fetchJson(`${config.overpassUrl.replace(/\/$/, '')}/api/interpreter`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `data=${encodeURIComponent(ql)}`,
        signal: ctx.signal,
      });
      const error = overpassError(body);
      if (error) throw new Error(`Overpass API error: ${error}`);
      const places = (body as { elements: OsmElement[] }).elements.flatMap((element) => osmElementToPlace(element, area) ?? []);
      const best = places
        .map((place, order) => ({ place, order }))
        .sort((a, b) => contactRoutes(b.place) - contactRoutes(a.place) || a.order - b.order)
        .slice(0, query.limit);
      for (const { place } of best) yield place;
    },
  };
}
