import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describe, expect, it } from 'vitest';
import { retryRead } from './queryClient';

const config = { headers: new AxiosHeaders() };

function answered(status: number): AxiosError {
  const response = { data: { detail: 'x' }, status, statusText: '', headers: {}, config } as AxiosResponse;
  return new AxiosError('Request failed', status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST', config, undefined, response);
}

describe('retryRead', () => {
  it('tries a read that got no answer once more, and only once', () => {
    const network = new AxiosError('Network Error', 'ERR_NETWORK', config);
    expect(retryRead(0, network)).toBe(true);
    expect(retryRead(1, network)).toBe(false);
  });

  it('never retries an answer: a 4xx is the server refusing, a 5xx was already retried behind the gateway', () => {
    for (const status of [400, 401, 403, 404, 422, 429, 500, 502, 503]) expect(retryRead(0, answered(status))).toBe(false);
  });

  it('never retries a cancelled read or an error that is not from the HTTP client', () => {
    expect(retryRead(0, new AxiosError('canceled', 'ERR_CANCELED', config))).toBe(false);
    expect(retryRead(0, new Error('boom'))).toBe(false);
  });
});
