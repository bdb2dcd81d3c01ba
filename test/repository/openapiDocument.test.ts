import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@leadforge/contracts';
import type { RouteSchemas } from '@leadforge/contracts/openapi/openApiDocument.ts';
import { openApiPath } from '@leadforge/contracts/openapi/openApiDocument.ts';
import { OPENAPI_FILE, recordServiceRoutes, renderOpenApi } from '../../stack/src/openapi/generateOpenApi.ts';

describe('the OpenAPI document (packages/contracts/src/openapi/openapi.json)', () => {
  let registered: RouteSchemas[];
  beforeAll(async () => {
    registered = await recordServiceRoutes();
  }, 120_000);

  it('is exactly what the generator makes from the route table and the services\' schemas', () => {
    expect(fs.readFileSync(OPENAPI_FILE, 'utf8'), 'run: node --import tsx stack/src/openapi/generateOpenApi.ts').toBe(renderOpenApi(registered));
  });

  it('documents every public and user route of the table, each registered by its service', () => {
    const doc = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8'));
    for (const route of ROUTES.filter((r) => r.access !== 'admin')) {
      const name = `${route.method} ${route.path}`;
      expect(doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()], `${name} is missing from the document`).toBeDefined();
      expect(registered.some((r) => r.method === route.method && r.url === route.path), `${name}: no service registers it`).toBe(true);
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
