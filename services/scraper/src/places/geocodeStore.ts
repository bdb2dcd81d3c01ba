import type { Db } from '@leadforge/kit/db';
import type { GeocodedArea } from './types.ts';
import type { GeocodeStore } from './nominatimGeocoder.ts';

/** Geocoded areas in the scraper's database (scraper_geocodes), so every replica reuses one answer. */
export function geocodeStoreOf(db: Db): GeocodeStore {
  return {
    async read(key, maxAgeHours) {
      const row = await db('scraper_geocodes').where({ location_key: key })
        .andWhere('geocoded_at', '>', db.raw("now() - (? * interval '1 hour')", [maxAgeHours])).first('area');
      return row?.area as GeocodedArea | undefined;
    },
    async write(key, area) {
      await db('scraper_geocodes').insert({ location_key: key, area: JSON.stringify(area), geocoded_at: db.fn.now() })
        .onConflict('location_key').merge();
    },
  };
}
