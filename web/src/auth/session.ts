import type { AxiosInstance } from 'axios';
import type { TokenStore } from '../api/tokenStorage';
import type { User } from './user';

export type Session =
  | { status: 'loading' }
  | { status: 'anonymous' }
  | { status: 'authenticated'; user: User };

export interface RegisterPayload {
  name: string;
  email: string;
  password: string;
  promo_code?: string;
  order_id?: string;
  promo_claim_token?: string;
  referral_code?: string;
  device_id?: string;
}

interface AuthResponse {
  user: User;
  access_token: string;
}

export interface SessionDeps {
  http: Pick<AxiosInstance, 'get' | 'post' | 'patch'>;
  tokens: TokenStore;
}

export const anonymous: Session = { status: 'anonymous' };
export const authenticated = (user: User): Session => ({ status: 'authenticated', user });

async function fetchCurrentUser({ http }: SessionDeps): Promise<User> {
  const { data } = await http.get<User>('/api/auth/me');
  return data;
}

/** Start-up check: a stored token is only trusted once the server accepts it. */
export async function restoreSession(deps: SessionDeps): Promise<Session> {
  if (!deps.tokens.read()) return anonymous;
  try {
    return authenticated(await fetchCurrentUser(deps));
  } catch (err) {
    console.error('Token validation failed:', err);
    deps.tokens.clear();
    return anonymous;
  }
}

function acceptAuth(deps: SessionDeps, data: AuthResponse): User {
  deps.tokens.write(data.access_token);
  return data.user;
}

export async function loginRequest(deps: SessionDeps, email: string, password: string): Promise<User> {
  const { data } = await deps.http.post<AuthResponse>('/api/auth/login', { email, password });
  return acceptAuth(deps, data);
}

export async function registerRequest(deps: SessionDeps, payload: RegisterPayload): Promise<User> {
  const { data } = await deps.http.post<AuthResponse>('/api/auth/register', payload);
  return acceptAuth(deps, data);
}

export interface PasswordChanged {
  user: User;
  /** API keys the change revoked (none when the user kept them). */
  apiKeysRevoked: number;
}

/** Changes the password; the answer is a new session (every other one has ended). */
export async function changePasswordRequest(deps: SessionDeps, currentPassword: string, newPassword: string, keepApiKeys: boolean): Promise<PasswordChanged> {
  const { data } = await deps.http.post<AuthResponse & { api_keys_revoked: number }>('/api/auth/password', {
    current_password: currentPassword, new_password: newPassword, keep_api_keys: keepApiKeys,
  });
  return { user: acceptAuth(deps, data), apiKeysRevoked: data.api_keys_revoked };
}

export async function updateNameRequest(deps: SessionDeps, name: string): Promise<User> {
  const { data } = await deps.http.patch<User>('/api/auth/me', { name });
  return data;
}
