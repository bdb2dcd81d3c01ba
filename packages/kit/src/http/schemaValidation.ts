import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function buildAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    // `verbose` hands describeValidation the schema's own `errorMessage`.
    verbose: true,
    removeAdditional: true,
    useDefaults: true,
    // One error is all we report; all errors would let a crafted body make validation expensive.
    allErrors: false,
    addUsedSchema: false,
  });
  addFormats.default(ajv);
  // `errorMessage` on a schema gives the user's sentence for that field (see describeValidation).
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: ['string', 'object'] });
  return ajv;
}

/**
 * JSON bodies are validated as sent, never coerced (`null` is not 0, `true` is not 1, `0` is not a
 * name); the query string, path and headers are text, so numbers and booleans there are parsed.
 */
export function schemaValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forBody = buildAjv(false);
  const forText = buildAjv('array');
  return ({ schema, httpPart }) => (httpPart === 'body' ? forBody : forText).compile(countAfterStripping(schema as Record<string, unknown>)) as never;
}

/**
 * Ajv counts an object's properties (`minProperties`) before it strips the unknown ones, so a body of
 * unknown fields only would pass and arrive empty: the count is checked again once they are gone.
 */
function countAfterStripping(schema: Record<string, unknown>): object {
  if (typeof schema.minProperties !== 'number') return schema;
  const messages = schema.errorMessage as Record<string, unknown> | undefined;
  return { allOf: [schema, { minProperties: schema.minProperties, ...(messages?.minProperties ? { errorMessage: { minProperties: messages.minProperties } } : {}) }] };
}
