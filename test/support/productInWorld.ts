import { DEFAULT_WEB_DIST, SERVICE_DEFINITIONS, startStack, type RunningStack } from '@leadforge/stack';
import { createScraperService } from '@leadforge/scraper';
import { waitFor } from '@leadforge/kit/testing/waitFor.ts';
import { apiClient, bearer } from './api.ts';
import { freshDataDir } from './dataTemplate.ts';
import { ADMIN_EMAIL } from './productAround.ts';
import type { SimulatedWorld } from './simulatedWorld.ts';

export interface ProductInWorld {
  stack: RunningStack;
  api: ReturnType<typeof apiClient>;
  register(email: string): Promise<{ token: string; id: string }>;
  /** Sets a user's balance exactly (an admin credit adjustment through the gateway). */
  setCredits(userId: string, token: string, credits: number): Promise<void>;
  balance(token: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The whole product as `npm start` puts it together, its lead engine pointed at the simulated world:
 * the places providers' stand-ins by URL, the businesses' websites through the world's host look-up
 * and connection route. `env` chooses the sources (PLACES_SOURCES) and anything else.
 */
export async function startProductInWorld(world: SimulatedWorld, env: NodeJS.ProcessEnv = {}): Promise<ProductInWorld> {
  const services = SERVICE_DEFINITIONS.map((def) => (def.name === 'scraper' ? createScraperService({ lookup: world.lookup, route: world.route }) : def));
  const stack = await startStack({
    port: 0,
    webDist: DEFAULT_WEB_DIST,
    services,
    env: {
      ...process.env,
      DATA_DIR: await freshDataDir('leadforge-world-'),
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
  const register = async (email: string) => {
    const res = await api('POST', '/api/auth/register', { name: email.split('@')[0], email, password: 'secret123' });
    if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.access_token as string, id: res.body.user.id as string };
  };
  const admin = await register(ADMIN_EMAIL);
  const balance = async (token: string) => (await api('GET', '/api/auth/me', undefined, bearer(token))).body.credits as number;
  return {
    stack,
    api,
    register,
    balance,
    async setCredits(userId, token, credits) {
      // The signup grant arrives by event; wait for it so the adjustment lands on top of it.
      const granted = await waitFor(() => balance(token), { until: (n) => n !== 0, what: 'the signup grant' });
      const change = credits - granted;
      if (change === 0) return;
      const res = await api('POST', '/api/admin/update-credits', { user_id: userId, credits_change: change }, bearer(admin.token));
      if (res.status !== 200) throw new Error(`update-credits: ${res.status} ${JSON.stringify(res.body)}`);
      await waitFor(() => balance(token), { until: (n) => n === credits, what: `a balance of ${credits}` });
    },
    close: () => stack.stop(),
  };
}
