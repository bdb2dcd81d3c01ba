import axios, { isAxiosError } from 'axios';
import { tokenStorage } from './tokenStorage';

export const api = axios.create({
  baseURL: '',
  timeout: 0,
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
});

api.interceptors.request.use((config) => {
  const token = tokenStorage.read();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

/** The server's `{ "detail": "..." }` text for a failed call, else `fallback`. */
export function errorDetail(err: unknown, fallback: string): string {
  if (!isAxiosError(err)) return fallback;
  const body: unknown = err.response?.data;
  if (typeof body === 'object' && body !== null && 'detail' in body) {
    const { detail } = body;
    if (typeof detail === 'string' && detail.trim() !== '') return detail;
  }
  return fallback;
}
