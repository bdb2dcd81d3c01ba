import { Type } from 'typebox';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

export const DocsFileParams = Type.Object({ file: Type.String({ maxLength: 64 }) });

/** The OpenAPI document and the interactive reference, served by auth; their answers are files, not JSON of a schema. */
export const API_DOCS_ROUTES = declareRoutes('auth', {
  openApi: { method: 'GET', path: '/api/openapi.json', access: 'public', schema: {} },
  page: { method: 'GET', path: '/api/docs', access: 'public', schema: {} },
  file: { method: 'GET', path: '/api/docs/:file', access: 'public', schema: { params: DocsFileParams, response: errorReplies(404) } },
});
