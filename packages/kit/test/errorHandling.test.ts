import Fastify from 'fastify';
import { Type } from 'typebox';
import net from 'node:net';
import knex from 'knex';
import { describe, expect, it } from 'vitest';
import { describeValidation, registerErrorHandling } from '../src/http/errorHandler.ts';
import { badRequest } from '../src/http/errors.ts';

describe('validation messages', () => {
  it('names the missing field', () => {
    expect(describeValidation([{ instancePath: '', keyword: 'required', params: { missingProperty: 'email' } }], 'body')).toBe('email is required');
  });
  it('names the field and the rule it broke', () => {
    expect(describeValidation([{ instancePath: '/quantity', keyword: 'maximum', message: 'must be <= 200', params: {} }])).toBe('quantity must be <= 200');
  });
  it('prefers the schema’s own sentence, per keyword or whole', () => {
    const perKeyword = { errorMessage: { minLength: 'Password must be at least 6 characters long' } };
    expect(describeValidation([{ instancePath: '/password', keyword: 'minLength', params: {}, parentSchema: perKeyword }])).toBe('Password must be at least 6 characters long');
    expect(describeValidation([{ instancePath: '/password', keyword: 'maxLength', message: 'must NOT have more than 200 characters', params: {}, parentSchema: perKeyword }]))
      .toBe('password must NOT have more than 200 characters');
    expect(describeValidation([{ instancePath: '/x', keyword: 'type', params: {}, parentSchema: { errorMessage: 'X please' } }])).toBe('X please');
  });
  it('says which part of the request when the whole of it is wrong', () => {
    expect(describeValidation([{ instancePath: '', keyword: 'type', message: 'must be object', params: {} }], 'body')).toBe('body must be object');
  });
});

describe('error responses', () => {
  async function app() {
    const a = Fastify();
    registerErrorHandling(a);
    a.post('/things', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }));
    a.get('/boom', async () => { throw new Error('secret stack detail'); });
    a.get('/refuse', async () => { throw badRequest('No, because reasons', 'because'); });
    a.get('/things/:id', async () => ({ ok: true }));
    return a;
  }

  it('answers bad input with 400 and a detail', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/things', payload: { n: 'abc' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'n must be integer', code: 'invalid_request' });
  });

  it('never leaks an internal error', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret stack detail');
    expect(res.json().detail).toBe('Internal server error; the problem has been logged');
  });

  it('turns HttpError into its status and detail', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/refuse' });
    expect(res.json()).toEqual({ detail: 'No, because reasons', code: 'because' });
  });

  it('tells 404 from 405 in the same shape', async () => {
    const a = await app();
    const missing = await a.inject({ method: 'GET', url: '/nothing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Not found: GET /nothing');
    const wrongMethod = await a.inject({ method: 'DELETE', url: '/things/7' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toContain('GET');
    expect(wrongMethod.json().detail).toBe('Method DELETE is not allowed on /things/7');
  });

  it('answers a database that is out of reach with 503 and a retry hint, not 500', async () => {
    const a = Fastify();
    registerErrorHandling(a);
    // A PostgreSQL client pointed at a loopback port nothing listens on, as during a restart.
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const db = knex({ client: 'pg', connection: `postgres://postgres@127.0.0.1:${closed}/x`, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 2000 });
    a.get('/db', async () => db.raw('select 1'));
    a.get('/shutting-down', async () => { throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }); });
    try {
      for (const url of ['/db', '/shutting-down']) {
        const res = await a.inject({ method: 'GET', url });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 503 });
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({ detail: 'The service is briefly unavailable; please try again in a few seconds', code: 'database_unavailable' });
      }
    } finally {
      await db.destroy();
    }
  });
});
