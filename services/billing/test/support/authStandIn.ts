import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  role: 'user' | 'admin';
}

/**
 * Auth's answers billing relies on — its JWKS, a user's standing and where their emails go — from
 * a key made here, so billing's tests need no other service. Tokens are RS256 JWTs as auth issues them.
 */
export async function startAuthStandIn() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = crypto.randomBytes(8).toString('hex');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const users = new Map<string, TestUser>();

  const server = http.createServer((req, res) => {
    const standing = req.url?.match(/^\/internal\/users\/([^/]+)\/standing$/);
    const recipient = req.url?.match(/^\/internal\/users\/([^/]+)\/mail-recipient$/);
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/jwks.json') return res.end(JSON.stringify({ keys: [jwk] }));
    if (recipient) {
      const user = users.get(decodeURIComponent(recipient[1]));
      if (!user) {
        res.statusCode = 404;
        return res.end(JSON.stringify({ detail: 'No active user to write to' }));
      }
      return res.end(JSON.stringify({ user_id: user.id, email: user.email, name: user.name, notify_search_ready: true }));
    }
    if (standing) {
      const user = users.get(decodeURIComponent(standing[1]));
      if (!user) {
        res.statusCode = 404;
        return res.end(JSON.stringify({ detail: 'User not found' }));
      }
      return res.end(JSON.stringify({ role: user.role, status: 'active' }));
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ detail: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const b64 = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

  return {
    url,
    /** A known user and a token for them. */
    user(role: 'user' | 'admin' = 'user', who: { email?: string; name?: string } = {}): TestUser & { token: string; headers: Record<string, string> } {
      const id = crypto.randomUUID();
      const user: TestUser = { id, email: who.email ?? `${id.slice(0, 8)}@example.com`, name: who.name ?? 'Test User', role };
      users.set(id, user);
      const now = Math.floor(Date.now() / 1000);
      const unsigned = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({ sub: id, email: user.email, name: user.name, role, iat: now, exp: now + 3600, iss: 'leadforge-auth', aud: 'leadforge-api' })}`;
      const token = `${unsigned}.${b64(crypto.sign('RSA-SHA256', Buffer.from(unsigned), privateKey))}`;
      return { ...user, token, headers: { authorization: `Bearer ${token}` } };
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type AuthStandIn = Awaited<ReturnType<typeof startAuthStandIn>>;
