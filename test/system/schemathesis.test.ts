/**
 * Fuzzes the running product (as `npm start` runs it) from its own OpenAPI document with schemathesis:
 * as a signed-in user on every documented operation, then with an API key on the operations that take
 * one. No answer may be a 5xx; every status, content type and body must be the documented ones.
 * A fixed seed and a few examples per operation keep the run short and repeatable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@leadforge/contracts';
import { openApiPath } from '@leadforge/contracts/openapi/openApiDocument.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { startFixtureWeb, type FixtureWeb } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { apiClient } from '../support/api.ts';
import { runSchemathesis, schemathesisBinary, SCHEMATHESIS_INSTALL } from '../support/schemathesis.ts';

const binary = schemathesisBinary();
if (!binary && process.env.LEADFORGE_REQUIRE_PREREQUISITES === 'true') {
  throw new Error(`LEADFORGE_REQUIRE_PREREQUISITES: schemathesis missing: ${SCHEMATHESIS_INSTALL}`);
}
const skipReason = binary ? '' : ` (skipped: no schemathesis; ${SCHEMATHESIS_INSTALL})`;

const CHECKS = 'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance';
/** Waits for a whole search (minutes): its quick twin POST /api/lead-searches is fuzzed instead. */
const NOT_FUZZED = '^/api/generate-leads$';
const keyPaths = [...new Set(ROUTES.filter((r) => r.apiKey && r.path !== '/api/generate-leads').map((r) => openApiPath(r.path)))];

describe.skipIf(!binary)(`schemathesis against the running product, from /api/openapi.json${skipReason}`, () => {
  let stack: LocalStackProcess;
  let web: FixtureWeb;
  let token: string;
  let key: string;

  const fuzz = (auth: string[], extra: string[] = []) => runSchemathesis(binary!, [
    `${stack.url}/api/openapi.json`,
    '--url', stack.url,
    ...auth,
    '--checks', CHECKS,
    '--phases', 'examples,coverage,fuzzing',
    '--max-examples', '4',
    '--seed', '20261124',
    '--workers', '2',
    '--request-timeout', '20',
    '--exclude-path-regex', NOT_FUZZED,
    '--no-shrink',
    ...extra,
  ], 600_000);

  beforeAll(async () => {
    // The geocoder and the map on loopback: a fuzzed place name is looked up there, never on the internet.
    web = await startFixtureWeb({ sites: 5 });
    stack = await startLocalStack({ env: { API_KEY_REQUESTS_PER_MINUTE: '100000', NOMINATIM_URL: web.urls.nominatim, OVERPASS_URL: web.urls.overpass, PLACES_SOURCE: 'osm' } });
    const api = apiClient(stack.url);
    const registered = await api('POST', '/api/auth/register', { name: 'Fuzz User', email: 'fuzz@example.com', password: 'fuzz-secret-1' });
    expect(registered.status).toBe(201);
    token = registered.body.access_token;
    const created = await api('POST', '/api/api-keys', { name: 'schemathesis' }, { authorization: `Bearer ${token}` });
    expect(created.status).toBe(201);
    key = created.body.key;
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    await web?.close();
  });

  it('as a signed-in user: no 5xx, every answer as documented', async () => {
    const run = await fuzz(['-H', `Authorization: Bearer ${token}`]);
    expect(run.code, run.output).toBe(0);
  }, 600_000);

  it('with an API key, on the operations that take one: no 5xx, every answer as documented', async () => {
    const include = keyPaths.flatMap((p) => ['--include-path', p]);
    const run = await fuzz(['-H', `X-API-Key: ${key}`], include);
    expect(run.code, run.output).toBe(0);
  }, 600_000);
});
