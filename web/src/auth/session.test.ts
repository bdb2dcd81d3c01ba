import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginRequest, registerRequest, restoreSession, type SessionDeps } from './session';
import type { TokenStore } from '../api/tokenStorage';
import type { User } from './user';

const user: User = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  role: 'user',
  credits: 10,
  status: 'active',
  created_at: '2025-01-01T00:00:00Z',
};

function memoryTokens(initial: string | null): TokenStore & { value: string | null } {
  return {
    value: initial,
    read() {
      return this.value;
    },
    write(token) {
      this.value = token;
    },
    clear() {
      this.value = null;
    },
  };
}

function fakeDeps(token: string | null, respond: (method: string, url: string, body?: unknown) => unknown) {
  const tokens = memoryTokens(token);
  const call = (method: string) =>
    vi.fn(async (url: string, body?: unknown) => ({ data: await respond(method, url, body) }));
  const http = { get: call('GET'), post: call('POST') };
  return { tokens, http, deps: { tokens, http } as unknown as SessionDeps };
}

afterEach(() => vi.restoreAllMocks());

describe('restoreSession', () => {
  it('is anonymous without a stored token and makes no call', async () => {
    const { deps, http } = fakeDeps(null, () => user);
    expect(await restoreSession(deps)).toEqual({ status: 'anonymous' });
    expect(http.get).not.toHaveBeenCalled();
  });

  it('is authenticated when /me accepts the token', async () => {
    const { deps, http } = fakeDeps('tok', () => user);
    expect(await restoreSession(deps)).toEqual({ status: 'authenticated', user });
    expect(http.get).toHaveBeenCalledWith('/api/auth/me');
  });

  it('drops a rejected token, logs, and becomes anonymous', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('401');
    const { deps, tokens } = fakeDeps('tok', () => {
      throw failure;
    });
    expect(await restoreSession(deps)).toEqual({ status: 'anonymous' });
    expect(tokens.value).toBeNull();
    expect(logged).toHaveBeenCalledWith('Token validation failed:', failure);
  });
});

describe('login and register', () => {
  it('login posts the credentials and stores the token', async () => {
    const { deps, http, tokens } = fakeDeps(null, () => ({ user, access_token: 'new-token' }));
    expect(await loginRequest(deps, 'ada@example.com', 'secret1')).toEqual(user);
    expect(http.post).toHaveBeenCalledWith('/api/auth/login', { email: 'ada@example.com', password: 'secret1' });
    expect(tokens.value).toBe('new-token');
  });

  it('register posts the payload and stores the token', async () => {
    const payload = { name: 'Ada', email: 'ada@example.com', password: 'secret1', promo_code: 'CBC500', order_id: 'O1' };
    const { deps, http, tokens } = fakeDeps(null, () => ({ user, access_token: 'reg-token' }));
    expect(await registerRequest(deps, payload)).toEqual(user);
    expect(http.post).toHaveBeenCalledWith('/api/auth/register', payload);
    expect(tokens.value).toBe('reg-token');
  });

  it('keeps no token when the server refuses', async () => {
    const { deps, tokens } = fakeDeps(null, () => {
      throw new Error('409');
    });
    await expect(loginRequest(deps, 'a@b.co', 'x')).rejects.toThrow('409');
    expect(tokens.value).toBeNull();
  });
});
