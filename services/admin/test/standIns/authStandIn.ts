import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Role, UserStatus } from '@leadforge/contracts';
import { loadKitConfig } from '@leadforge/kit/config';
import type { Bus } from '@leadforge/kit/events';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@leadforge/kit/http';
import { publishEvent } from '../busEvents.ts';

interface StandInUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: UserStatus;
}

const ROLES: readonly string[] = ['user', 'admin'];
const STATUSES: readonly string[] = ['active', 'inactive', 'deleted'];

/**
 * The parts of the auth service admin relies on, so admin's tests start no other service: RS256
 * access tokens and the JWKS that verifies them, a user's standing, and the role and status changes
 * an admin asks for, with auth's rules (no self-demotion or self-deactivation, a deleted account is
 * not found, a change that changes nothing announces nothing), each announced on the bus as auth
 * announces it (`user.registered`, `user.role_changed`, `user.status_changed`). The system tests run
 * admin against the real auth.
 */
export async function startAuthStandIn(bus: Bus, adminEmails: readonly string[]) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `admin-test-${crypto.randomBytes(4).toString('hex')}`;
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  // The token every service of this process shares for /internal routes, as the real auth checks it.
  const internalToken = loadKitConfig('auth').internalToken;
  const users = new Map<string, StandInUser>();

  const b64 = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');
  const tokenFor = (user: StandInUser) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: user.id, email: user.email, name: user.name, role: user.role, iat: now, exp: now + 3600, iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE };
    const unsigned = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
    return `${unsigned}.${b64(crypto.sign('RSA-SHA256', Buffer.from(unsigned), privateKey))}`;
  };
  const view = (u: StandInUser) => ({ id: u.id, name: u.name, email: u.email, role: u.role, status: u.status });

  async function answer(req: http.IncomingMessage): Promise<[number, unknown]> {
    if (req.method === 'GET' && req.url === '/.well-known/jwks.json') return [200, { keys: [jwk] }];
    const route = /^\/internal\/users\/([^/]+)\/(standing|role|status)$/.exec(req.url ?? '');
    if (!route) return [404, { detail: 'Not found' }];
    if (req.headers['x-internal-token'] !== internalToken) return [403, { detail: 'Forbidden' }];
    const user = users.get(decodeURIComponent(route[1]));
    if (route[2] === 'standing') return user ? [200, { role: user.role, status: user.status, session_generation: 0 }] : [404, { detail: 'User not found' }];

    let body: { role?: string; status?: string; actor_id?: string };
    try {
      body = JSON.parse(Buffer.concat(await req.toArray()).toString('utf8'));
    } catch {
      return [400, { detail: 'Request body is not valid JSON' }];
    }
    if (route[2] === 'role') {
      if (!ROLES.includes(body.role ?? '')) return [400, { detail: 'role must be user or admin' }];
      const role = body.role as Role;
      if (body.actor_id && body.actor_id === user?.id && role !== 'admin') return [400, { detail: 'You cannot demote your own account' }];
      if (!user || user.status === 'deleted') return [404, { detail: 'User not found' }];
      if (user.role !== role) {
        user.role = role;
        await publishEvent(bus, 'user.role_changed', user.id, { user_id: user.id, role, ...(body.actor_id ? { actor_id: body.actor_id } : {}) });
      }
      return [200, view(user)];
    }
    if (!STATUSES.includes(body.status ?? '')) return [400, { detail: 'status must be active, inactive or deleted' }];
    const status = body.status as UserStatus;
    if (body.actor_id && body.actor_id === user?.id && status !== 'active') return [400, { detail: 'You cannot deactivate your own account' }];
    if (!user) return [404, { detail: 'User not found' }];
    if (user.status !== status) {
      user.status = status;
      await publishEvent(bus, 'user.status_changed', user.id, { user_id: user.id, status, ...(body.actor_id ? { actor_id: body.actor_id } : {}) });
    }
    return [200, view(user)];
  }

  const server = http.createServer((req, res) => {
    answer(req).then(
      ([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      (error: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: error.message }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const admins = new Set(adminEmails.map((email) => email.toLowerCase()));
  let lastCreatedAt = 0;

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Registers an account (an admin when its address is one of `adminEmails`) and announces it, as auth does. */
    async register(name: string, email: string): Promise<{ id: string; token: string }> {
      const user: StandInUser = { id: crypto.randomUUID(), name, email: email.toLowerCase(), role: admins.has(email.toLowerCase()) ? 'admin' : 'user', status: 'active' };
      users.set(user.id, user);
      // Each account a moment after the one before, as auth's clock (microseconds) keeps them apart.
      lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
      await publishEvent(bus, 'user.registered', user.id, {
        user_id: user.id, name: user.name, email: user.email, role: user.role, status: user.status, created_at: new Date(lastCreatedAt).toISOString(),
      });
      return { id: user.id, token: tokenFor(user) };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export type AuthStandIn = Awaited<ReturnType<typeof startAuthStandIn>>;
