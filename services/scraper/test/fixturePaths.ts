import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the scraper's test fixtures live: `fixtures/` next to the tests, inside the repository, so a
 * fresh clone has everything its tests read (see fixtures/README.md).
 */
export const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Real websites with their labelled contacts, one folder per site. */
export const REAL_SITES_DIR = path.join(FIXTURES_DIR, 'real-sites');

/** A fixture file by its path under `fixtures/`, e.g. `fixturePath('overpass', 'jamundi-hospitals.json')`. */
export const fixturePath = (...parts: string[]): string => path.join(FIXTURES_DIR, ...parts);
