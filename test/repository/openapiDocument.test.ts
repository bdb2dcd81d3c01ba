import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@leadforge/contracts';
import { openApiPath } from '@leadforge/contracts/openapi/openApiDocument.ts';
import { startService, type RunningService } from '@leadforge/kit/service';
import { OPENAPI_FILE, renderOpenApi } from '../../stack/src/openapi/generateOpenApi.ts';
import { SERVICE_DEFINITIONS } from '../../stack/src/services.ts';

describe('the OpenAPI document (packages/contracts/src/openapi/openapi.json)', () => {
  // The services are started for real (in memory, on loopback) to see which routes each registers.
  let services: RunningService[] = [];
  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, DATA_DIR: ':memory:', LOG_LEVEL: 'silent', SERVICE_HOST: '127.0.0.1' };
    services = await Promise.all(SERVICE_DEFINITIONS.map((def) => startService(def, { env, port: 0 })));
  }, 120_000);
  afterAll(() => Promise.all(services.map((service) => service.stop())));

  it('is exactly what the generator makes from the route declarations', () => {
    expect(fs.readFileSync(OPENAPI_FILE, 'utf8'), 'run: node --import tsx stack/src/openapi/generateOpenApi.ts').toBe(renderOpenApi());
  });

  it('documents every public and user route of the table, each registered by its service', () => {
    const doc = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8'));
    for (const route of ROUTES.filter((r) => r.access !== 'admin')) {
      const name = `${route.method} ${route.path}`;
      expect(doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()], `${name} is missing from the document`).toBeDefined();
      const owner = services.find((service) => service.name === route.service);
      expect(owner?.app.hasRoute({ method: route.method, url: route.path }), `${name}: its service does not register it`).toBe(true);
    }
  });

  it('gives every operation a summary of what it does, not its own method and path again', () => {
    const doc = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8'));
    const bare: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { summary?: string }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.summary?.trim() || operation.summary === `${method.toUpperCase()} ${path}`) bare.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(bare).toEqual([]);
  });
});
