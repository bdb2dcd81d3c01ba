import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AccessClaims } from '@leadforge/contracts';

export interface StandInAuth {
  url: string;
  /** A signed access token for a user, as auth would issue it. */
  tokenFor(userId: string, claims?: Partial<AccessClaims>): string;
  /** Makes auth answer where a user's emails go (unknown users get a 404, as from auth for a gone account). */
  addRecipient(userId: string, recipient: { email: string; name: string; notify_search_ready?: boolean }): void;
  close(): Promise<void>;
}

/**
 * Just enough of the auth service for another service's tests: its JWKS (RS256), the internal
 * standing look-up every service makes for a signed-in user, and where a user's emails go.
 */
export async function startStandInAuth(): Promise<StandInAuth> {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = crypto.randomBytes(8).toString('hex');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };

  const recipients = new Map<string, { email: string; name: string; notify_search_ready: boolean }>();
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/jwks.json') return send(200, { keys: [jwk] });
    // Users whose id starts with `admin` are administrators.
    if (/^\/internal\/users\/[^/]+\/standing$/.test(req.url ?? '')) return send(200, { role: req.url!.startsWith('/internal/users/admin') ? 'admin' : 'user', status: 'active' });
    const recipient = /^\/internal\/users\/([^/]+)\/mail-recipient$/.exec(req.url ?? '');
    if (recipient) {
      const userId = decodeURIComponent(recipient[1]);
      const found = recipients.get(userId);
      return found ? send(200, { user_id: userId, ...found }) : send(404, { detail: 'No active user to write to' });
    }
    return send(404, { detail: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    url: `http://127.0.0.1:${port}`,
    tokenFor(userId, claims = {}) {
      const now = Math.floor(Date.now() / 1000);
      const head = b64({ alg: 'RS256', typ: 'JWT', kid });
      const body = b64({ sub: userId, email: `${userId}@example.com`, name: `User ${userId}`, role: 'user', ...claims, iat: now, exp: now + 3600, iss: 'leadforge-auth', aud: 'leadforge-api' });
      const signature = crypto.sign('sha256', Buffer.from(`${head}.${body}`), privateKey).toString('base64url');
      return `${head}.${body}.${signature}`;
    },
    addRecipient(userId, recipient) {
      recipients.set(userId, { notify_search_ready: true, ...recipient });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
