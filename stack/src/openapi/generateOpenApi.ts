/**
 * Writes packages/contracts/src/openapi/openapi.json (served at /api/openapi.json) from the route table and
 * the schemas every service registers its routes with; run after changing a route or its schemas:
 *   node --import tsx stack/src/openapi/generateOpenApi.ts           write the file
 *   node --import tsx stack/src/openapi/generateOpenApi.ts --check   exit 1 when the committed file is stale
 * The services are started for real (in memory, on loopback) so the schemas are theirs, not a copy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument, type RouteSchemas } from '@leadforge/contracts/openapi/openApiDocument.ts';
import { OPENAPI_FILE } from '@leadforge/contracts/openapi/openApiFile.ts';
import { startService } from '@leadforge/kit/service';
import { SERVICE_DEFINITIONS } from '../services.ts';

export { OPENAPI_FILE };

/** Every service's `/api/*` routes with their schemas, as registered. */
export async function recordServiceRoutes(): Promise<RouteSchemas[]> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    SERVICE_HOST: '127.0.0.1',
  };
  const services = await Promise.all(SERVICE_DEFINITIONS.map((def) => startService(def, { env, port: 0 })));
  await Promise.all(services.map((service) => service.stop()));
  return services.flatMap((service) => service.apiRoutes);
}

export function renderOpenApi(recorded: RouteSchemas[]): string {
  return `${JSON.stringify(openApiDocument(recorded), null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const rendered = renderOpenApi(await recordServiceRoutes());
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
    if (current !== rendered) {
      console.error('packages/contracts/src/openapi/openapi.json is stale: run node --import tsx stack/src/openapi/generateOpenApi.ts');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(OPENAPI_FILE, rendered);
    console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
  }
  process.exit(0);
}
