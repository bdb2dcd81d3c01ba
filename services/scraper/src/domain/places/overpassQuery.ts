import type { GeocodedArea } from './nominatimGeocoder.ts';
import type { OsmTag } from './osmIndustryTags.ts';

const quoted = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const regexLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Overpass QL for named nodes, ways and relations in the area that carry one of the tags, or
 * whose name contains `nameWord` when there are no tags. Ways and relations come with a centre.
 */
export function overpassQuery(area: GeocodedArea, tags: OsmTag[], nameWord: string, maxResults: number): string {
  const bbox = [area.south, area.west, area.north, area.east].map((value) => value.toFixed(6)).join(',');
  const filters = tags.length
    ? tags.map(([key, value]) => `[${quoted(key)}=${quoted(value)}][name]`)
    : [`[name~${quoted(regexLiteral(nameWord))},i]`];
  const statements = filters.map((filter) => `  nwr${filter}(${bbox});`).join('\n');
  return `[out:json][timeout:25];\n(\n${statements}\n);\nout center tags ${maxResults};`;
}
