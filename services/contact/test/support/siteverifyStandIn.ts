import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SiteVerifyRequest {
  secret: string;
  response: string;
  remoteip: string;
}

/**
 * Google's reCAPTCHA siteverify as documented: a form POST of secret, response and remoteip
 * answered with { success, challenge_ts, hostname, error-codes }. Tokens are the ones `issue`d,
 * each good once (a second check says timeout-or-duplicate, as Google does).
 */
export async function startSiteVerifyStandIn(secret = `stand-in-secret-${crypto.randomBytes(6).toString('hex')}`) {
  const issued = new Map<string, { hostname: string; used: boolean }>();
  const requests: SiteVerifyRequest[] = [];
  const state = { down: false };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => { raw += chunk; });
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body, null, 2));
      };
      if (req.method !== 'POST' || req.url !== '/recaptcha/api/siteverify') return send(404, {});
      if (state.down) return send(503, {});
      const form = new URLSearchParams(raw);
      const request = { secret: form.get('secret') ?? '', response: form.get('response') ?? '', remoteip: form.get('remoteip') ?? '' };
      requests.push(request);
      if (!request.secret) return send(200, { success: false, 'error-codes': ['missing-input-secret'] });
      if (request.secret !== secret) return send(200, { success: false, 'error-codes': ['invalid-input-secret'] });
      if (!request.response) return send(200, { success: false, 'error-codes': ['missing-input-response'] });
      const token = issued.get(request.response);
      if (!token) return send(200, { success: false, 'error-codes': ['invalid-input-response'] });
      if (token.used) return send(200, { success: false, 'error-codes': ['timeout-or-duplicate'] });
      token.used = true;
      send(200, { success: true, challenge_ts: new Date().toISOString(), hostname: token.hostname });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`;

  return {
    url,
    secret,
    siteKey: `stand-in-site-key-${crypto.randomBytes(6).toString('hex')}`,
    requests,
    state,
    /** A token as the widget on `hostname` would hand one out after a solved check. */
    issue(hostname = 'localhost'): string {
      const token = `03A${crypto.randomBytes(48).toString('base64url')}`;
      issued.set(token, { hostname, used: false });
      return token;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
