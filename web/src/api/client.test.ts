import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse } from 'axios';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, errorDetail } from './client';

function responseError(data: unknown): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response = { data, status: 400, statusText: 'Bad Request', headers: {}, config } as AxiosResponse;
  return new AxiosError('Request failed', 'ERR_BAD_REQUEST', config, undefined, response);
}

describe('errorDetail', () => {
  it("prefers the server's detail text", () => {
    expect(errorDetail(responseError({ detail: 'Invalid email or password' }), 'Login failed')).toBe(
      'Invalid email or password',
    );
  });

  it('falls back without a usable detail', () => {
    expect(errorDetail(responseError({ detail: '' }), 'Login failed')).toBe('Login failed');
    expect(errorDetail(responseError({ detail: [{ msg: 'x' }] }), 'Login failed')).toBe('Login failed');
    expect(errorDetail(responseError('<html>'), 'Login failed')).toBe('Login failed');
    expect(errorDetail(new AxiosError('Network Error'), 'Login failed')).toBe('Login failed');
    expect(errorDetail(new Error('boom'), 'Login failed')).toBe('Login failed');
  });
});

describe('api client', () => {
  afterEach(() => vi.unstubAllGlobals());

  const echoHeaders: AxiosAdapter = async (config) => ({
    data: config.headers.toJSON(),
    status: 200,
    statusText: 'OK',
    headers: {},
    config,
  });

  it('is same-origin with no timeout and the XSRF names the server expects', () => {
    expect(api.defaults.baseURL).toBe('');
    expect(api.defaults.timeout).toBe(0);
    expect(api.defaults.xsrfCookieName).toBe('XSRF-TOKEN');
    expect(api.defaults.xsrfHeaderName).toBe('X-XSRF-TOKEN');
  });

  it('adds the stored bearer token', async () => {
    vi.stubGlobal('localStorage', { getItem: (key: string) => (key === 'token' ? 'tok123' : null) });
    const { data } = await api.get('/api/auth/me', { adapter: echoHeaders });
    expect(data.Authorization).toBe('Bearer tok123');
  });

  it('sends no Authorization header without a token', async () => {
    vi.stubGlobal('localStorage', { getItem: () => null });
    const { data } = await api.get('/api/auth/me', { adapter: echoHeaders });
    expect(data).not.toHaveProperty('Authorization');
  });
});
