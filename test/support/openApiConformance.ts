import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { matchRoute } from '@leadforge/contracts';
import { openApiPath } from '@leadforge/contracts/openapi/openApiDocument.ts';

type Json = Record<string, any>;

/**
 * Checks real answers against the OpenAPI document: the operation of the request, the documented
 * response for its status (or `default`), its content type and its JSON schema.
 */
export function openApiConformance(document: Json) {
  const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
  (addFormats as unknown as typeof addFormats.default)(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components });
  const resolve = (node: Json): Json => (node?.$ref ? resolve(node.$ref.split('/').slice(1).reduce((o: Json, k: string) => o[k], document)) : node);
  const withRefs = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));

  return function problems(method: string, path: string, status: number, contentType: string | null, body: unknown): string[] {
    const route = matchRoute(method, path.split('?')[0]);
    if (!route) return [`${method} ${path}: not a route of the table`];
    const op = document.paths[openApiPath(route.path)]?.[method.toLowerCase()];
    if (!op) return [`${method} ${route.path}: missing from the document`];
    const response = resolve(op.responses[String(status)] ?? op.responses.default);
    if (!response) return [`${method} ${route.path}: status ${status} is not documented`];
    if (!response.content) return body === undefined || body === '' ? [] : [`${method} ${route.path} ${status}: a body where none is documented`];
    const type = (contentType ?? '').split(';')[0].trim();
    const media = response.content[type];
    if (!media) return [`${method} ${route.path} ${status}: content type ${type} is not documented (${Object.keys(response.content).join(', ')})`];
    if (type !== 'application/json') return [];
    const validate = ajv.compile(withRefs(media.schema) as object);
    return validate(body) ? [] : [`${method} ${route.path} ${status}: ${ajv.errorsText(validate.errors)}`];
  };
}
