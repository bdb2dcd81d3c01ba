export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A tiny JSON client for system tests: sends what it is given, returns status and parsed body. */
export function apiClient(baseUrl: string) {
  return async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const raw = typeof body === 'string' || body instanceof Uint8Array;
    const res = await fetch(`${baseUrl}${path}`, {
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

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
