import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { App } from '@leadforge/kit/service';
import { handle, notFound } from '@leadforge/kit/http';
import { API_DOCS_ROUTES } from '@leadforge/contracts';
import { OPENAPI_FILE } from '@leadforge/contracts/openapi/openApiFile.ts';
import { DOCS_PAGE, DOCS_START_SCRIPT } from './apiDocsPage.ts';

const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const DOCS_FILES: Record<string, { type: string; body: () => Buffer | string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: () => fs.readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'application/javascript; charset=utf-8', body: () => fs.readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js')) },
  'leadforge-docs.js': { type: 'application/javascript; charset=utf-8', body: () => DOCS_START_SCRIPT },
};

/** The OpenAPI document and the interactive reference: public, served by auth. */
export async function apiDocsRoutes(app: App): Promise<void> {
  const document = fs.readFileSync(OPENAPI_FILE, 'utf8');
  const files = new Map(Object.entries(DOCS_FILES).map(([name, file]) => [name, { type: file.type, body: file.body() }]));

  handle(app, API_DOCS_ROUTES.openApi, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('application/json; charset=utf-8').send(document));

  handle(app, API_DOCS_ROUTES.page, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(DOCS_PAGE));

  handle(app, API_DOCS_ROUTES.file, async (request, reply) => {
    const file = files.get(request.params.file);
    if (!file) throw notFound('Not found', 'not_found');
    return reply.header('cache-control', 'public, max-age=3600').type(file.type).send(file.body);
  });
}
