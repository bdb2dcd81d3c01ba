import crypto from 'node:crypto';
import { GOOGLE_TEST_KEYS } from '../config.ts';

export type Verdict =
  | { ok: true; hostname?: string }
  | { ok: false; reason: 'invalid' | 'expired_or_duplicate' | 'wrong_hostname'; errorCodes: string[] };

/** Checks a robot-check token once; throws VerifierUnavailable when it cannot tell. */
export interface TokenVerifier {
  verify(token: string, remoteIp: string): Promise<Verdict>;
}

export class VerifierUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifierUnavailable';
  }
}

interface SiteVerifyAnswer {
  success?: boolean;
  hostname?: string;
  challenge_ts?: string;
  'error-codes'?: string[];
}

/**
 * reCAPTCHA's siteverify (POST secret, response, remoteip as a form): success and, unless the keys
 * are Google's test keys, the hostname the check was solved on.
 */
export function siteVerify(options: { url: string; secret: string; expectedHostnames: string[]; timeoutMs?: number }): TokenVerifier {
  const checkHostname = options.secret !== GOOGLE_TEST_KEYS.secret && options.expectedHostnames.length > 0;
  return {
    async verify(token, remoteIp) {
      let res: Response;
      try {
        res = await fetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp }).toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
      } catch (err) {
        throw new VerifierUnavailable(`reCAPTCHA siteverify did not answer: ${(err as Error).message}`);
      }
      const answer = (await res.json().catch(() => undefined)) as SiteVerifyAnswer | undefined;
      if (!res.ok || !answer || typeof answer.success !== 'boolean') throw new VerifierUnavailable(`reCAPTCHA siteverify answered ${res.status} without a verdict`);
      const errorCodes = answer['error-codes'] ?? [];
      if (errorCodes.some((code) => code.endsWith('input-secret'))) throw new VerifierUnavailable(`reCAPTCHA refused our secret (${errorCodes.join(', ')})`);
      if (!answer.success) return { ok: false, reason: errorCodes.includes('timeout-or-duplicate') ? 'expired_or_duplicate' : 'invalid', errorCodes };
      if (checkHostname && !options.expectedHostnames.includes(String(answer.hostname).toLowerCase())) {
        return { ok: false, reason: 'wrong_hostname', errorCodes: [`hostname ${answer.hostname}`] };
      }
      return { ok: true, hostname: answer.hostname };
    },
  };
}

/** What the SPA's built-in test check hands out: clearly not a Google token. */
export const LOCAL_TEST_TOKEN = /^local-test\.[0-9a-f]{32}$/;

/**
 * Local mode without reCAPTCHA keys: accepts the tokens of the SPA's labelled test check (single
 * use is still enforced by the submissions table). Production refuses to start without real keys.
 */
export function localTestVerifier(hostname: string): TokenVerifier {
  return {
    async verify(token) {
      return LOCAL_TEST_TOKEN.test(token) ? { ok: true, hostname } : { ok: false, reason: 'invalid', errorCodes: ['invalid-input-response'] };
    },
  };
}

export const tokenHash = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');
