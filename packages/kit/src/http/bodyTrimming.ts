import type { FastifyRequest } from 'fastify';

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A preValidation hook trimming every top-level string field of a JSON body: people paste values
 * with stray spaces. With `dropEmpty`, a field of only spaces is removed, so it counts as not given.
 */
export function trimBodyStrings(options: { dropEmpty?: boolean } = {}) {
  return async (request: FastifyRequest): Promise<void> => {
    const body: unknown = request.body;
    if (!isJsonObject(body)) return;
    for (const [key, value] of Object.entries(body)) {
      if (typeof value !== 'string') continue;
      const trimmed = value.trim();
      if (trimmed || !options.dropEmpty) body[key] = trimmed;
      else delete body[key];
    }
  };
}
