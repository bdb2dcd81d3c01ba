import { Agent, fetch as undiciFetch } from 'undici';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface ApiClientOptions {
  /**
   * The loopback address the client connects from (e.g. 127.0.0.23): the gateway forwards it as the
   * caller's address, so two people in one test do not look like one person registering twice.
   */
  from?: string;
}

/** A tiny JSON client for system tests: sends what it is given, returns status and parsed body. */
export function apiClient(baseUrl: string, options: ApiClientOptions = {}) {
  const dispatcher = options.from ? new Agent({ localAddress: options.from }) : undefined;
  // An IPv4 source needs an IPv4 destination: `localhost` may resolve to ::1 first.
  if (options.from) baseUrl = baseUrl.replace('//localhost:', '//127.0.0.1:');
  const send = dispatcher
    ? (url: string, init: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher }) as unknown as Promise<Response>
    : (url: string, init: RequestInit) => fetch(url, init);
  return async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const raw = typeof body === 'string' || body instanceof Uint8Array;
    const res = await send(`${baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : raw ? (body as string) : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch { /* not JSON: keep the text */ }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
}

/** A distinct loopback address per person of a test (127.0.0.10, .11, ...), for `apiClient`'s `from`. */
export function loopbackAddresses(first = 10): () => string {
  let next = first;
  return () => `127.0.0.${next++}`;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
