import crypto from 'node:crypto';
import { resolveAllowedAddress, type HostLookup } from '@leadforge/kit/outbound';
import type { MailDomainLookup } from './emailVerdict.ts';
import { recipientReplyCode } from './smtpRecipientProbe.ts';

/** `catch_all`: the domain's mail server accepted a recipient that cannot exist. */
export type CatchAllStatus = 'catch_all' | 'not_catch_all' | 'unknown';
export type CatchAllCheck = (domain: string) => Promise<CatchAllStatus>;

export interface CatchAllProbeOptions {
  /** The domain's mail exchanges; the one with the lowest preference is asked. */
  resolveMx(domain: string): Promise<{ exchange: string; priority: number }[]>;
  /** Addresses of the MX host; each is checked by the network guard before connecting. */
  lookup: HostLookup;
  allowPrivateNetworks: boolean;
  port: number;
  /** The whole probe (MX look-up, waiting for the host, the conversation) takes at most this long. */
  timeoutMs: number;
  heloName: string;
  sender: string;
  ttlMs?: number;
  /** Answers that are `unknown` are kept this long, so a silent server is not asked again at once. */
  unknownTtlMs?: number;
  maxDomains?: number;
}

const REFUSED_RECIPIENT = new Set([550, 551, 553]);

/**
 * Asks a domain's best MX host whether it takes mail for a random local part: 250 is a catch-all,
 * 550/551/553 is not, anything else is unknown. Answers are cached per domain (bounded, with a TTL),
 * one probe per domain is in flight at a time, and one connection per MX host at a time.
 */
export function createCatchAllProbe(options: CatchAllProbeOptions): CatchAllCheck {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const unknownTtlMs = options.unknownTtlMs ?? 10 * 60 * 1000;
  const maxDomains = options.maxDomains ?? 10_000;
  const cache = new Map<string, { status: Promise<CatchAllStatus>; expires: number }>();
  const hostBusy = new Map<string, Promise<unknown>>();

  async function probe(domain: string, deadline: number): Promise<CatchAllStatus> {
    const exchanges = (await options.resolveMx(domain)).filter((record) => record.exchange && record.exchange !== '.');
    if (!exchanges.length) return 'unknown';
    const host = exchanges.sort((a, b) => a.priority - b.priority)[0].exchange.toLowerCase();
    const target = await resolveAllowedAddress(host, options.lookup, options.allowPrivateNetworks, `smtp://${host}:${options.port}`);
    // One connection per MX host: wait for the previous probe of this host, within our own deadline.
    const previous = hostBusy.get(host) ?? Promise.resolve();
    const conversation = previous.then(() => {
      const timeoutMs = deadline - Date.now();
      if (timeoutMs <= 0) return { code: Promise.resolve(undefined), closed: Promise.resolve() };
      return recipientReplyCode({
        address: target.address, port: options.port, heloName: options.heloName, sender: options.sender,
        recipient: `${crypto.randomBytes(12).toString('hex')}-no-such-mailbox@${domain}`, timeoutMs,
      });
    });
    // The host is free again once the connection has closed, not merely once RCPT was answered.
    const turn = conversation.then(({ closed }) => closed, () => undefined);
    hostBusy.set(host, turn);
    void turn.finally(() => { if (hostBusy.get(host) === turn) hostBusy.delete(host); });
    const code = await (await conversation).code;
    if (code === 250) return 'catch_all';
    return code !== undefined && REFUSED_RECIPIENT.has(code) ? 'not_catch_all' : 'unknown';
  }

  return (domain) => {
    const key = domain.toLowerCase();
    const now = Date.now();
    const cached = cache.get(key);
    if (cached && cached.expires > now) return cached.status;
    const deadline = now + options.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<CatchAllStatus>((resolve) => { timer = setTimeout(resolve, options.timeoutMs, 'unknown'); });
    const status = Promise.race([probe(key, deadline).catch((): CatchAllStatus => 'unknown'), late]).finally(() => clearTimeout(timer));
    const entry = { status, expires: now + ttlMs };
    cache.delete(key);
    cache.set(key, entry);
    if (cache.size > maxDomains) cache.delete(cache.keys().next().value!);
    void status.then((answer) => { if (answer === 'unknown' && cache.get(key) === entry) entry.expires = Date.now() + unknownTtlMs; });
    return status;
  };
}

/** The MX lookup, with domains that take mail probed for catch-all: such a domain is `accepts_all`. */
export function withCatchAllCheck(lookup: MailDomainLookup, catchAll: CatchAllCheck): MailDomainLookup {
  return async (domain) => {
    const status = await lookup(domain);
    if (status !== 'accepts') return status;
    return (await catchAll(domain)) === 'catch_all' ? 'accepts_all' : 'accepts';
  };
}

/**
 * The MX lookup unchanged, but starting the catch-all probe of domains that take mail without
 * waiting for it: the crawl's keep-or-drop check uses it, so the probe runs alongside the rest of
 * the site's crawl and the verdict later finds its answer cached or in flight.
 */
export function startingCatchAllCheck(lookup: MailDomainLookup, catchAll: CatchAllCheck): MailDomainLookup {
  return async (domain) => {
    const status = await lookup(domain);
    if (status === 'accepts') void catchAll(domain);
    return status;
  };
}
