import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHostileValue, queryEscapesAreValid } from '../src/http/hostileInput.ts';
import { startServiceForTest } from '@leadforge/testing';
import type { RunningService, ServiceDefinition } from '../src/service/service.ts';

/** Routes that hand what they get to PostgreSQL, as a service's queries do. */
const echoing: ServiceDefinition = {
  name: 'contact',
  async routes(app, ctx) {
    const roundTrip = async (value: unknown) => (await ctx.db.raw('select ?::text as v', [JSON.stringify(value)])).rows[0].v;
    app.post('/things', {
      schema: { body: Type.Object({ name: Type.String({ minLength: 1 }), n: Type.Integer(), flag: Type.Optional(Type.Boolean()), tags: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: false }) },
    }, async (request) => ({ stored: JSON.parse(await roundTrip(request.body)) }));
    app.post('/free-form', async (request) => ({ stored: await roundTrip(request.body) }));
    app.get('/items', {
      schema: { querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })), q: Type.Optional(Type.String()), all: Type.Optional(Type.Boolean()) }) },
    }, async (request) => ({ query: request.query, stored: await roundTrip(request.query) }));
    app.get('/items/:id', async (request) => ({ stored: await roundTrip((request.params as { id: string }).id) }));
  },
};

describe('hostile values', () => {
  it('finds NUL, lone surrogates, non-finite numbers and deep nesting, naming where', () => {
    expect(findHostileValue({ user: { email: 'a\u0000b' } }, 'body')).toBe('user.email must not contain NUL characters');
    expect(findHostileValue({ id: '\ud800x' }, 'body')).toBe('id is not valid Unicode text');
    expect(findHostileValue({ id: 'x\udc00' }, 'body')).toBe('id is not valid Unicode text');
    expect(findHostileValue({ ['k\u0000']: 1 }, 'body')).toBe('A field name in body must not contain NUL characters');
    expect(findHostileValue({ page: Infinity }, 'query')).toBe('page must be a finite number');
    expect(findHostileValue(JSON.parse('[1e309]'), 'body')).toBe('0 must be a finite number');
    expect(findHostileValue(JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`), 'body')).toBe('body is nested too deeply');
    expect(findHostileValue('\u0000', 'body')).toBe('body must not contain NUL characters');
  });
  it('leaves ordinary text alone, emoji (surrogate pairs) included', () => {
    expect(findHostileValue({ name: 'Zoë 😀', tags: ['a', 'b'], n: -1.5, nested: { ok: null, yes: true } }, 'body')).toBeUndefined();
  });
  it('tells a valid query escape from a bad one', () => {
    expect(queryEscapesAreValid('q=caf%C3%A9&x=a+b&y=%20')).toBe(true);
    expect(queryEscapesAreValid('x=%ff')).toBe(false);
    expect(queryEscapesAreValid('%zz=1')).toBe(false);
    expect(queryEscapesAreValid('x=%')).toBe(false);
  });
});

describe('a service answers hostile input with 400 and a detail, never 500', () => {
  let svc: RunningService;
  beforeAll(async () => { svc = await startServiceForTest(echoing, { kind: 'pglite' }); });
  afterAll(async () => svc?.stop());

  async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${svc.url}${path}`, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, body });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) };
  }

  it('accepts ordinary input and still parses numbers and booleans in the query', async () => {
    expect(await call('POST', '/things', '{"name":"Zoë 😀","n":3,"tags":["a"]}')).toEqual({ status: 200, body: { stored: { name: 'Zoë 😀', n: 3, tags: ['a'] } } });
    expect((await call('GET', '/items?page=2&all=true&q=caf%C3%A9')).body.query).toEqual({ page: 2, all: true, q: 'café' });
  });

  it('validates JSON bodies without coercing them', async () => {
    for (const body of ['{"name":0,"n":1}', '{"name":["a"],"n":1}', '{"name":"a","n":null}', '{"name":"a","n":true}', '{"name":"a","n":"5"}', '{"name":"a","n":1,"flag":"true"}', '{"name":"a","n":1,"tags":"a"}']) {
      const res = await call('POST', '/things', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.detail).toMatch(/must be/);
    }
  });

  it.each([
    ['NUL in a body field', 'POST', '/things', '{"name":"a\\u0000b","n":1}', 'name must not contain NUL characters'],
    ['NUL in a body without a schema', 'POST', '/free-form', '{"note":"\\u0000"}', 'note must not contain NUL characters'],
    ['a lone surrogate', 'POST', '/things', '{"name":"\\ud800x","n":1}', 'name is not valid Unicode text'],
    ['1e309 in a body', 'POST', '/things', '{"name":"a","n":1e309}', 'n must be a finite number'],
    ['nesting 10,000 deep', 'POST', '/free-form', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'body is nested too deeply'],
    ['a __proto__ key', 'POST', '/free-form', '{"__proto__":{"admin":true}}', undefined],
    ['NUL in the query', 'GET', '/items?q=%00', undefined, 'q must not contain NUL characters'],
    ['an encoded surrogate in the query', 'GET', '/items?q=%ED%A0%80', undefined, 'The query string has an invalid percent escape'],
    ['1e309 in a paging parameter', 'GET', '/items?page=1e309', undefined, 'page must be a finite number'],
    ['a bad escape in the query', 'GET', '/items?x=%ff', undefined, 'The query string has an invalid percent escape'],
    ['NUL in a path parameter', 'GET', '/items/%00', undefined, 'id must not contain NUL characters'],
    ['a bad escape in a path parameter', 'GET', '/items/%ff', undefined, 'The address contains an invalid percent escape'],
  ])('%s', async (_name, method, path, body, detail) => {
    const res = await call(method, path, body);
    expect(res.status).toBe(400);
    if (detail) expect(res.body.detail).toBe(detail);
    else expect(res.body.detail).toEqual(expect.any(String));
  });

  it('answers an overlong path parameter 414 and oversized headers 431, both with a detail', async () => {
    const long = await call('GET', `/items/${'a'.repeat(500)}`);
    expect(long).toEqual({ status: 414, body: { detail: 'A part of the address is too long', code: 'uri_too_long' } });
    const big = await call('GET', '/items', undefined, { 'x-big': 'a'.repeat(20_000) });
    expect(big.status).toBe(431);
    expect(big.body.detail).toBe('The request headers (or its address) are too large');
    expect((await call('GET', '/items?page=1')).status).toBe(200);
  });
});
