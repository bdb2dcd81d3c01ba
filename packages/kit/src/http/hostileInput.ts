import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

/** Deeper than any request of ours; a 10,000-deep body is refused before anything recurses into it. */
export const MAX_INPUT_DEPTH = 32;

const PART_NAMES = { query: 'query', params: 'path', body: 'body' } as const;

/**
 * What a schema cannot say about a value and PostgreSQL or JSON would choke on: a NUL character
 * (PostgreSQL text refuses it), a lone UTF-16 surrogate (not encodable as UTF-8), a number that is
 * not finite (JSON's `1e309`, a query's `1e309` once coerced), or nesting past MAX_INPUT_DEPTH.
 * Returns the sentence for the first one found, naming where it is; undefined when the value is fine.
 * Iterative, so hostile depth cannot overflow the stack.
 */
export function findHostileValue(value: unknown, where: string): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    const name = path || where;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return `${name} ${problem}`;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${name} must be a finite number`;
    } else if (v !== null && typeof v === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return `${where} is nested too deeply`;
      for (const [key, child] of Object.entries(v)) {
        const keyProblem = textProblem(key);
        if (keyProblem) return `A field name in ${where} ${keyProblem}`;
        stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text';
  return undefined;
}

/** True when every percent escape of a query string decodes (fast-querystring would let `%ff` through). */
export function queryEscapesAreValid(query: string): boolean {
  for (const part of query.split(/[&=]/)) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return false;
    }
  }
  return true;
}

export function checkQueryEscapes(request: FastifyRequest): void {
  const at = request.url.indexOf('?');
  if (at >= 0 && !queryEscapesAreValid(request.url.slice(at + 1))) {
    throw badRequest('The query string has an invalid percent escape', 'bad_escape');
  }
}

function checkParts(request: FastifyRequest, parts: (keyof typeof PART_NAMES)[]): void {
  for (const part of parts) {
    const problem = findHostileValue(request[part], PART_NAMES[part]);
    if (problem) throw badRequest(problem, 'invalid_input');
  }
}

/**
 * Every route of a service refuses hostile input with a 400 before its schema or handler sees it:
 * bad query escapes at once, then NUL, lone surrogates, non-finite numbers and deep nesting in the
 * query, path and body; and once the query is coerced, a number that became Infinity.
 */
export function registerHostileInputChecks(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => checkQueryEscapes(request));
  app.addHook('preValidation', async (request) => checkParts(request, ['query', 'params', 'body']));
  app.addHook('preHandler', async (request) => checkParts(request, ['query', 'params']));
}
