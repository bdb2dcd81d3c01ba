import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { GeocodedArea, Position } from './nominatimGeocoder.ts';

/** A rectangle of the map, in degrees. */
export interface Cell {
  south: number;
  west: number;
  north: number;
  east: number;
}

const inCell = (cell: Cell, lon: number, lat: number) => lat >= cell.south && lat <= cell.north && lon >= cell.west && lon <= cell.east;

const inPolygons = (polygons: Position[][][], lon: number, lat: number) =>
  booleanPointInPolygon([lon, lat], { type: 'MultiPolygon', coordinates: polygons });

/** Whether a point lies in the area: inside its boundary polygon, or its bounding box when it has none. */
export function isInArea(area: GeocodedArea, lat: number, lon: number): boolean {
  if (!inCell(area, lon, lat)) return false;
  return area.polygons ? inPolygons(area.polygons, lon, lat) : true;
}

/**
 * Whether a cell may hold part of the area: a vertex of the boundary in the cell, or one of 25
 * points spread over the cell inside the boundary. A boundary can cross a cell between those
 * points only in a sliver narrower than a fifth of the cell, which a finer cell then covers.
 */
export function cellTouchesArea(area: GeocodedArea, cell: Cell): boolean {
  if (cell.north < area.south || cell.south > area.north || cell.east < area.west || cell.west > area.east) return false;
  if (!area.polygons) return true;
  if (area.polygons.some((polygon) => polygon[0].some(([lon, lat]) => inCell(cell, lon, lat)))) return true;
  for (let i = 0; i <= 4; i++) {
    for (let j = 0; j <= 4; j++) {
      const lat = cell.south + ((cell.north - cell.south) * i) / 4;
      const lon = cell.west + ((cell.east - cell.west) * j) / 4;
      if (inPolygons(area.polygons, lon, lat)) return true;
    }
  }
  return false;
}

/** The four quarters of a cell, the one nearest the area's centre first (a fixed order: the same search splits the same way). */
export function quartersOf(cell: Cell, area: GeocodedArea): Cell[] {
  const midLat = (cell.south + cell.north) / 2;
  const midLon = (cell.west + cell.east) / 2;
  const quarters: Cell[] = [
    { south: cell.south, west: cell.west, north: midLat, east: midLon },
    { south: cell.south, west: midLon, north: midLat, east: cell.east },
    { south: midLat, west: cell.west, north: cell.north, east: midLon },
    { south: midLat, west: midLon, north: cell.north, east: cell.east },
  ];
  return quarters.sort((a, b) => distanceFromCentre(a, area) - distanceFromCentre(b, area));
}

/** How far a cell's centre is from the area's (degrees, longitude scaled by latitude). */
export function distanceFromCentre(cell: Cell, area: GeocodedArea): number {
  const lat = (area.south + area.north) / 2;
  const dLat = (cell.south + cell.north) / 2 - lat;
  const dLon = ((cell.west + cell.east) / 2 - (area.west + area.east) / 2) * Math.cos((lat * Math.PI) / 180);
  return Math.hypot(dLat, dLon);
}
