import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInUser {
  id: string;
  name: string;
  email: string;
  role?: 'user' | 'admin';
}

/**
 * The parts of the auth service another service relies on: RS256 access tokens, the JWKS that
 * verifies them, and `/internal/users/:id/standing`. Tokens are minted here as auth mints them.
 */
export async function startAuthStandIn() {
  const kid = `test-${crypto.randomBytes(4).toString('hex')}`;
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const users = new Map<string, StandInUser>();

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/jwks.json') return send(200, { keys: [jwk] });
    const standing = /^\/internal\/users\/([^/]+)\/standing$/.exec(req.url ?? '');
    if (standing) {
      const user = users.get(decodeURIComponent(standing[1]));
      return user ? send(200, { role: user.role ?? 'user', status: 'active' }) : send(404, { detail: 'User not found' });
    }
    send(404, { detail: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    url,
    /** A bearer header for `user`, who from now on exists for the standing look-up. */
    bearer(user: StandInUser): Record<string, string> {
      users.set(user.id, user);
      const now = Math.floor(Date.now() / 1000);
      const unsigned = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({ sub: user.id, email: user.email, name: user.name, role: user.role ?? 'user', iat: now, exp: now + 3600, iss: 'leadforge-auth', aud: 'leadforge-api' })}`;
      const signature = crypto.sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url');
      return { authorization: `Bearer ${unsigned}.${signature}` };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
