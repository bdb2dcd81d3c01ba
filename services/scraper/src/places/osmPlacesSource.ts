import { osmElementToPlace, type OsmElement } from './osmElementToPlace.ts';
import { nameWordOf, osmTagsOf } from './osmIndustryTags.ts';
import { overpassQuery } from './overpassQuery.ts';
import type { FetchJson, Place, PlacesSource } from './types.ts';

export interface OsmSourceConfig {
  fetchJson: FetchJson;
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

/** OpenStreetMap: Overpass finds the businesses in the area (its boundary polygon) that match the industry, in one answer. */
export function createOsmPlacesSource(config: OsmSourceConfig): PlacesSource {
  return {
    name: 'osm',
    async *searchArea(area, query, ctx, report) {
      if (ctx.takeRequest?.('osm') === false) return;
      const asked = Math.min(query.limit * OVERFETCH, MAX_ELEMENTS);
      const ql = overpassQuery(area, osmTagsOf(query.industry), nameWordOf(query.industry), asked);
      const body = await config.fetchJson(`${config.overpassUrl.replace(/\/$/, '')}/api/interpreter`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `data=${encodeURIComponent(ql)}`,
        signal: ctx.signal,
      });
      const error = overpassError(body);
      if (error) throw new Error(`Overpass API error: ${error}`);
      const elements = (body as { elements: OsmElement[] }).elements;
      // Fewer elements than asked for: Overpass has no more in the area.
      report.complete = elements.length < asked;
      const places = elements.flatMap((element) => osmElementToPlace(element, area) ?? []);
      yield places
        .map((place, order) => ({ place, order }))
        .sort((a, b) => contactRoutes(b.place) - contactRoutes(a.place) || a.order - b.order)
        .map(({ place }) => place);
    },
  };
}
