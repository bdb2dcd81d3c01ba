import { DEFAULT_WEB_DIST, SERVICE_DEFINITIONS, startStack, type RunningStack } from '@leadforge/stack';
import { createScraperService } from '@leadforge/scraper';
import { apiClient } from './api.ts';
import { freshDataDir } from './dataTemplate.ts';
import { ADMIN_EMAIL, productAccounts, type ProductAccounts } from './productAccounts.ts';
import type { SimulatedWorld } from './simulatedWorld.ts';

export interface ProductInWorld extends ProductAccounts {
  stack: RunningStack;
  api: ReturnType<typeof apiClient>;
  /** Where the product keeps its files (its mails under `mail/`). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole product as `npm start` puts it together, its lead engine pointed at the simulated world:
 * the places providers' stand-ins by URL, the businesses' websites through the world's host look-up
 * and connection route. `env` chooses the sources (PLACES_SOURCES) and anything else.
 */
export async function startProductInWorld(world: SimulatedWorld, env: NodeJS.ProcessEnv = {}): Promise<ProductInWorld> {
  const services = SERVICE_DEFINITIONS.map((def) => (def.name === 'scraper' ? createScraperService({ lookup: world.lookup, route: world.route }) : def));
  const dataDir = await freshDataDir('leadforge-world-');
  const stack = await startStack({
    port: 0,
    webDist: DEFAULT_WEB_DIST,
    services,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      TEST_DATABASE_URL: '',
      KAFKA_BROKERS: '',
      REDIS_URL: '',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
      PLACES_SOURCE: 'osm',
      NOMINATIM_URL: world.urls.nominatim,
      OVERPASS_URL: world.urls.overpass,
      GOOGLE_PLACES_API_BASE: world.urls.googlePlaces,
      GOOGLE_PLACES_API_KEY: 'world-key',
      DECODO_PROXY_URL: '',
      SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
      EMAIL_MX_CHECK: 'false',
      SCRAPER_PER_HOST_DELAY_MS: '0',
      // The world answers from this process, whose event loop the crawl keeps busy: the shipped
      // 15 s timeout, so a provider's or a site's answer is not given up while it waits its turn.
      SCRAPER_JOB_POLL_MS: '100',
      SCRAPER_LEAD_BATCH_MS: '100',
      ADMIN_EMAILS: ADMIN_EMAIL,
      ...env,
    },
  });
  const api = apiClient(stack.url);
  const accounts = await productAccounts(api, dataDir);
  return {
    stack,
    api,
    dataDir,
    ...accounts,
    close: () => stack.stop(),
  };
}
