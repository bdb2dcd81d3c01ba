import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** What the gateway adds to every request it forwards: the internal token, so a service can tell it from a direct caller. */
export const GATEWAY_PROOF_HEADER = 'x-leadforge-gateway';

const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
};

const isLoopback = (address: string | undefined) => !!address && (/^(::ffff:)?127\./.test(address) || address === '::1');

/**
 * Fastify's `trustProxy`: loopback (where the local gateway and Envoy in the distributed mode run)
 * and the addresses in TRUSTED_PROXIES (comma-separated IPs or CIDRs; in a cluster, the gateway pods').
 */
export function trustedProxies(configured: string[]): string[] {
  return ['loopback', ...configured];
}

/**
 * X-Forwarded-* is believed only from the gateway. A caller on loopback is the gateway only when it
 * proves it with the internal token; anyone else reaching a service port directly has those headers
 * dropped, so they cannot choose their own address and slip past per-address rate limits.
 */
export function registerClientAddress(app: FastifyInstance, internalToken: string): void {
  app.addHook('onRequest', async (request) => {
    const headers = request.raw.headers;
    const proof = headers[GATEWAY_PROOF_HEADER];
    delete headers[GATEWAY_PROOF_HEADER];
    if (!isLoopback(request.raw.socket.remoteAddress)) return;
    if (typeof proof === 'string' && sameSecret(proof, internalToken)) return;
    for (const name of FORWARDED_HEADERS) delete headers[name];
  });
}
