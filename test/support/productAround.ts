import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncRequestListener } from '@leadforge/testing';
import { DEFAULT_WEB_DIST, SERVICE_DEFINITIONS, startStack, type RunningStack } from '@leadforge/stack';
import { createScraperService } from '@leadforge/scraper';
import { startFixtureWeb, type FixtureWeb } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { apiClient } from './api.ts';
import { freshDataDir } from './dataTemplate.ts';
import { ADMIN_EMAIL, productAccounts, type ProductAccounts } from './productAccounts.ts';

/**
 * Which places the maps source answers with: the full fixture, one where exactly 12 businesses have
 * contacts, that one with two more businesses (a world that gains two: monitors), or none: down (a
 * 503), unreachable (the connection cut without an answer, as with no internet), or over its quota (a 429).
 */
export type SourceMode = 'full' | 'twelve' | 'fourteen' | 'down' | 'unreachable' | 'quota';

export interface ProductAround extends ProductAccounts {
  stack: RunningStack;
  /** Its DATA_DIR: the `.eml` mail is under `mail/`. */
  dataDir: string;
  web: FixtureWeb;
  api: ReturnType<typeof apiClient>;
  setSource(mode: SourceMode): void;
  close(): Promise<void>;
}

export { ADMIN_EMAIL };

/**
 * The whole product as `npm start` puts it together (every service of stack/src/services.ts, each on
 * its own port and database, the in-process bus, the gateway, the built SPA), with the lead engine
 * pointed at the fixture web: the maps source (Nominatim, Overpass) through a switch the test turns,
 * and business websites (the *.fixture.test hosts) reached through the fixture web's own host look-up
 * and connection route, the one thing `npm start` cannot be told from outside.
 */
export async function startProductAround(options: { latencyMs?: number; sites?: number; engineDefaults?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<ProductAround> {
  // 13 sites, one of them without any contact: exactly 12 leads exist there.
  // The generated sites are the same for the same index, so 15 sites are those 13 and two more with contacts.
  const [web, twelve, fourteen] = await Promise.all([
    startFixtureWeb({ sites: options.sites ?? 80, latencyMs: options.latencyMs }),
    startFixtureWeb({ sites: 13, latencyMs: options.latencyMs }),
    startFixtureWeb({ sites: 15, latencyMs: options.latencyMs }),
  ]);
  let mode: SourceMode = 'full';
  const switchboard = http.createServer(asyncRequestListener(async (req, res) => {
    if (mode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      return void res.end('fixture source is down');
    }
    if (mode === 'unreachable') return void req.socket.destroy();
    if (mode === 'quota') {
      res.writeHead(429, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error: 'Rate limit exceeded: your quota of requests is used up' }));
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const answer = await fetch((mode === 'twelve' ? twelve : mode === 'fourteen' ? fourteen : web).origin + req.url, {
        method: req.method,
        headers: { 'content-type': String(req.headers['content-type'] ?? 'text/plain') },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.destroy();
    }
  }));
  await new Promise<void>((resolve) => switchboard.listen(0, '127.0.0.1', resolve));
  const source = `http://127.0.0.1:${(switchboard.address() as AddressInfo).port}`;

  const services = SERVICE_DEFINITIONS.map((def) => (def.name === 'scraper' ? createScraperService({ lookup: web.loopbackLookup, route: web.route }) : def));
  const dataDir = await freshDataDir('leadforge-leads-');
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
      NOMINATIM_URL: `${source}/nominatim`,
      OVERPASS_URL: `${source}/overpass`,
      DECODO_PROXY_URL: '',
      SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
      EMAIL_MX_CHECK: 'false',
      // Tests hurry the engine along; a benchmark measures it as it ships (engineDefaults).
      ...(options.engineDefaults ? {} : { SCRAPER_PER_HOST_DELAY_MS: '0', SCRAPER_TIMEOUT_MS: '5000', SCRAPER_JOB_POLL_MS: '100', SCRAPER_LEAD_BATCH_MS: '100' }),
      ADMIN_EMAILS: ADMIN_EMAIL,
      ...options.env,
    },
  });
  const api = apiClient(stack.url);

  const accounts = await productAccounts(api, dataDir);

  return {
    stack,
    dataDir,
    web,
    api,
    setSource: (next) => { mode = next; },
    ...accounts,
    async close() {
      await stack.stop();
      await new Promise<void>((resolve) => switchboard.close(() => resolve()));
      await Promise.all([web.close(), twelve.close(), fourteen.close()]);
    },
  };
}
