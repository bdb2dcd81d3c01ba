import type { GeocodedArea } from './nominatimGeocoder.ts';
import type { OsmTag } from './osmIndustryTags.ts';

const quoted = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const regexLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The area filters: the outer ring of each boundary polygon (`poly:"lat lon ..."`), or the bounding
 * box when the area has no polygon. Holes are not expressible in a poly filter; what falls in one is
 * dropped afterwards with everything else outside the boundary.
 */
function areaFilters(area: GeocodedArea): string[] {
  if (!area.polygons) return [[area.south, area.west, area.north, area.east].map((value) => value.toFixed(6)).join(',')];
  return area.polygons.map((polygon) => `poly:${quoted(polygon[0].map(([lon, lat]) => `${lat.toFixed(6)} ${lon.toFixed(6)}`).join(' '))}`);
}

/**
 * Overpass QL for named nodes, ways and relations in the area that carry one of the tags, or
 * whose name contains `nameWord` when there are no tags. Ways and relations come with a centre.
 */
export function overpassQuery(area: GeocodedArea, tags: OsmTag[], nameWord: string, maxResults: number): string {
  return `[out:json][timeout:25];\n(\n${statementsOf(area, tags, nameWord)}\n);\nout center tags ${maxResults};`;
}

/** The same selection counted (`out count;`): how many there are, without their tags. */
export function overpassCountQuery(area: GeocodedArea, tags: OsmTag[], nameWord: string): string {
  return `[out:json][timeout:10];\n(\n${statementsOf(area, tags, nameWord)}\n);\nout count;`;
}

function statementsOf(area: GeocodedArea, tags: OsmTag[], nameWord: string): string {
  const filters = tags.length
    ? tags.map(([key, value]) => `[${quoted(key)}=${quoted(value)}][name]`)
    : [`[name~${quoted(regexLiteral(nameWord))},i]`];
  return areaFilters(area).flatMap((where) => filters.map((filter) => `  nwr${filter}(${where});`)).join('\n');
}
