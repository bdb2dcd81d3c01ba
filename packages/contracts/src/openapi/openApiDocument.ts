/**
 * The OpenAPI 3.1 document of the public API, made from the route declarations: who may call what,
 * which routes take API keys, and the schemas the services validate and answer with (TypeBox, i.e.
 * JSON Schema 2020-12, which OpenAPI 3.1 uses as is). Admin routes are left out: they serve the
 * product's own admin pages, not integrations.
 */
import { ErrorBody } from '../api/common.ts';
import { API_KEY_HEADER } from '../api/apiKeys.ts';
import { ROUTES, type RouteDeclaration, type RouteSchemas } from '../routes.ts';
import { OPERATION_NOTES, RAW_RESPONSES } from './operationNotes.ts';

type Json = Record<string, unknown>;

export const OPENAPI_PATH = '/api/openapi.json';
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** Drops what only our validator reads (ajv-errors' messages) and TypeBox's symbols; keeps JSON Schema. */
function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'errorMessage') continue;
    out[key] = cleanSchema(value);
  }
  return out;
}

const isErrorBody = (schema: unknown) => JSON.stringify(cleanSchema(schema)) === JSON.stringify(cleanSchema(ErrorBody));

export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function operationId(route: RouteDeclaration): string {
  const words = route.path.replace(/^\/api\//, '').split(/[/.-]/).filter(Boolean)
    .map((w) => (w.startsWith(':') ? `By${w[1].toUpperCase()}${w.slice(2)}` : w[0].toUpperCase() + w.slice(1)));
  return `${route.method.toLowerCase()}${words.join('')}`;
}

/** Operations grouped by what they are about: `/api/<group>/...`, with a few joined to their kin. */
function tagOf(path: string): string {
  const group = path.split('/')[2];
  return ({ 'openapi.json': 'docs', 'generate-leads': 'lead-searches', account: 'auth' } as Record<string, string>)[group] ?? group;
}

function parameters(schema: RouteSchemas): Json[] {
  const list: Json[] = [];
  const add = (where: 'path' | 'query', object: unknown) => {
    const o = cleanSchema(object) as { properties?: Json; required?: string[] } | undefined;
    for (const [name, property] of Object.entries(o?.properties ?? {})) {
      const { description, ...rest } = property as Json;
      list.push({ name, in: where, required: where === 'path' || Boolean(o?.required?.includes(name)), schema: rest, ...(description ? { description } : {}) });
    }
  };
  add('path', schema.params);
  add('query', schema.querystring);
  return list;
}

function responses(route: RouteDeclaration): Json {
  const name = `${route.method} ${route.path}`;
  const out: Json = {};
  for (const [status, schema] of Object.entries(route.schema.response ?? {})) {
    if (isErrorBody(schema)) {
      out[status] = { $ref: '#/components/responses/Error' };
      continue;
    }
    const cleaned = cleanSchema(schema);
    out[status] = (cleaned as Json | undefined)?.type === 'null'
      ? { description: 'Done; no body' }
      : { description: 'Success', content: { 'application/json': { schema: cleaned, ...exampleOf(name, 'response') } } };
  }
  if (!Object.keys(out).some((s) => s.startsWith('2'))) {
    const raw = RAW_RESPONSES[name];
    out['200'] = raw
      ? { description: raw.description, content: Object.fromEntries(raw.types.map((type) => [type, { schema: raw.schema ?? { type: 'string' } }])) }
      : { description: 'Success' };
  }
  if (route.access !== 'public' && !out['401']) out['401'] = { $ref: '#/components/responses/Error' };
  // Any other status (413, 415, 429, 503...) carries the same error body.
  out.default = { $ref: '#/components/responses/Error' };
  return out;
}

function exampleOf(name: string, part: 'request' | 'response'): Json {
  const example = OPERATION_NOTES[name]?.examples?.[part];
  return example === undefined ? {} : { example };
}

function operation(route: RouteDeclaration): Json {
  const name = `${route.method} ${route.path}`;
  const notes = OPERATION_NOTES[name];
  const { schema } = route;
  const security = route.access === 'public' ? [] : [{ bearerAuth: [] }, ...(route.apiKey ? [{ apiKey: [] }] : [])];
  return {
    operationId: operationId(route),
    tags: [tagOf(route.path)],
    summary: notes?.summary ?? `${route.method} ${openApiPath(route.path)}`,
    ...(notes?.description || route.apiKey
      ? { description: [notes?.description, route.apiKey ? `Accepts an API key (\`X-API-Key\`).` : undefined].filter(Boolean).join('\n\n') }
      : {}),
    security,
    ...(parameters(schema).length ? { parameters: parameters(schema) } : {}),
    ...(schema.body ? { requestBody: { required: true, content: { 'application/json': { schema: cleanSchema(schema.body), ...exampleOf(name, 'request') } } } } : {}),
    responses: responses(route),
  };
}

/** The public and user routes of `table`. */
export function openApiDocument(table: readonly RouteDeclaration[] = ROUTES): Json {
  const paths: Json = {};
  for (const route of table) {
    if (route.access === 'admin') continue;
    ((paths[openApiPath(route.path)] ??= {}) as Json)[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Leadforge API',
      version: '1',
      description: 'Lead searches, their leads, exports and webhooks for your own scripts and integrations. '
        + 'Authenticate with an API key (`X-API-Key`, created on the Developers page) or a session token (`Authorization: Bearer`). '
        + 'Every error answers `{"detail": "...", "code": "..."}`. Admin routes are not part of this document.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Error: { ...(cleanSchema(ErrorBody) as Json), example: { detail: 'Search not found', code: 'not_found' } } },
      responses: { Error: { description: 'An error: a sentence for people (`detail`) and an optional stable `code`', content: { 'application/json': { schema: ERROR_REF } } } },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of a session (POST /api/auth/login).' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: `An API key (\`${API_KEY_HEADER}\`), on the routes that accept one.` },
      },
    },
  };
}
