import crypto from 'node:crypto';
import { resolveAllowedAddress, type HostLookup } from '@leadforge/kit/outbound';
import { createMxHostPacer, type MxPacing } from './mxHostPacer.ts';
import { askRecipients, type ConversationResult, type SmtpReply } from './smtpRecipientProbe.ts';

/** What a mail server said of one address; `code` is the reply that decided (or the last one heard). */
export interface MailboxAnswer {
  deliverability: 'deliverable' | 'undeliverable' | 'accept_all' | 'unknown';
  code?: number;
}
export type MailboxProbe = (address: string, domain: string, host: string) => Promise<MailboxAnswer>;

export interface MailboxProbeOptions {
  /** Addresses of the MX host; each is checked by the network guard before connecting. */
  lookup: HostLookup;
  allowPrivateNetworks: boolean;
  port: number;
  /** One conversation (connect, greeting, EHLO, MAIL FROM, the RCPTs) takes at most this long. */
  timeoutMs: number;
  heloName: string;
  /** MAIL FROM; '' is the null sender <>. */
  sender: string;
  /** Ask for a random local part first: a server accepting it accepts anything (`accept_all`). */
  acceptAllCheck: boolean;
  /** How long a domain found accepting everything (or not) is remembered. */
  acceptAllTtlMs: number;
  /** A greylisted probe (450/451) is tried once more after this wait; 0 does not retry. */
  greylistRetryMs: number;
  pacing: MxPacing;
  maxDomains?: number;
}

type RecipientAnswer = 'accepted' | 'refused' | 'greylisted' | 'unclear';

// Refusals of the mailbox itself, not of us: wording seen in servers' 5xx replies without an enhanced code.
const UNKNOWN_MAILBOX = /user unknown|unknown user|no such (user|mailbox|recipient|account)|mailbox (unavailable|not found|does not exist)|recipient (unknown|not found|rejected)|does not exist|invalid (recipient|mailbox)|address rejected/i;
// Refusals of the sender or its address (blocklists, policy, relaying): they say nothing of the mailbox.
const POLICY = /block|spam|policy|reputation|listed|denied|banned|not allowed|relay|authenticat/i;

/**
 * 250/251 accepted; 450/451 greylisted; enhanced 5.1.x (bad mailbox; not 5.1.7/5.1.8, which are
 * about the sender) or a 550/551/553 naming an unknown mailbox refused; anything else says nothing
 * certain about the mailbox (a blocklisted sender, a full disk, a policy).
 */
export function recipientAnswer(reply: SmtpReply): RecipientAnswer {
  if (reply.code === 250 || reply.code === 251) return 'accepted';
  if (reply.code === 450 || reply.code === 451) return 'greylisted';
  if (reply.code < 500) return 'unclear';
  if (reply.enhanced) return /^5\.1\.(?!7$|8$)\d+$/.test(reply.enhanced) ? 'refused' : 'unclear';
  if (POLICY.test(reply.text)) return 'unclear';
  return [550, 551, 553].includes(reply.code) || UNKNOWN_MAILBOX.test(reply.text) ? 'refused' : 'unclear';
}

/**
 * Asks a domain's mail host whether it takes mail for an address, without sending any: in one
 * conversation a random local part first (a server accepting it accepts anything: `accept_all`, and
 * the address itself tells nothing), then the address. 250 is deliverable, a refusal of the mailbox
 * undeliverable; a greylisted conversation is tried once more after `greylistRetryMs`; time-outs,
 * other 4xx, policy refusals and hosts past their pace or cap are `unknown`. Accept-all answers are
 * remembered per domain, so an accept-all domain's next addresses cost no probe.
 */
export function createMailboxProbe(options: MailboxProbeOptions): MailboxProbe {
  const pacer = createMxHostPacer(options.pacing);
  const maxDomains = options.maxDomains ?? 10_000;
  const domains = new Map<string, { acceptsAll: boolean; code: number; expires: number }>();

  const remember = (domain: string, acceptsAll: boolean, code: number) => {
    domains.delete(domain);
    domains.set(domain, { acceptsAll, code, expires: Date.now() + options.acceptAllTtlMs });
    if (domains.size > maxDomains) domains.delete(domains.keys().next().value!);
  };

  async function converse(host: string, recipients: string[]): Promise<ConversationResult | undefined> {
    const turn = await pacer(host);
    if (!turn.granted) return undefined;
    let closed: Promise<void> = Promise.resolve();
    try {
      const target = await resolveAllowedAddress(host, options.lookup, options.allowPrivateNetworks, `smtp://${host}:${options.port}`);
      const conversation = askRecipients({
        address: target.address, port: options.port, heloName: options.heloName, sender: options.sender, recipients, timeoutMs: options.timeoutMs,
        // Past a random local part's acceptance or an unclear reply, the address's answer means nothing; a
        // greylisted one still asks for the address, so the retry finds both recipients let through.
        stopAfter: (reply, index) => recipients.length > 1 && index === 0 && ['accepted', 'unclear'].includes(recipientAnswer(reply)),
      });
      closed = conversation.closed;
      return await conversation.result;
    } catch {
      return undefined;
    } finally {
      turn.release(closed);
    }
  }

  /** One conversation's answer, or the greylisting reply's code when it should be tried again. */
  function answerOf(domain: string, result: ConversationResult | undefined, probedAcceptAll: boolean): MailboxAnswer | number {
    if (!result) return { deliverability: 'unknown' };
    const [first, second] = result.replies;
    const last = result.replies.at(-1) ?? result.refusal;
    if (probedAcceptAll) {
      if (!first) return { deliverability: 'unknown', ...(last ? { code: last.code } : {}) };
      const random = recipientAnswer(first);
      if (random === 'accepted') {
        remember(domain, true, first.code);
        return { deliverability: 'accept_all', code: first.code };
      }
      if (random === 'greylisted') return first.code;
      if (random === 'unclear') return { deliverability: 'unknown', code: first.code };
      remember(domain, false, first.code);
    }
    const reply = probedAcceptAll ? second : first;
    if (!reply) return { deliverability: 'unknown', ...(last ? { code: last.code } : {}) };
    const answer = recipientAnswer(reply);
    if (answer === 'greylisted') return reply.code;
    const deliverability = answer === 'accepted' ? 'deliverable' : answer === 'refused' ? 'undeliverable' : 'unknown';
    return { deliverability, code: reply.code };
  }

  return async (address, domain, host) => {
    const known = domains.get(domain);
    const fresh = known && known.expires > Date.now() ? known : undefined;
    if (fresh?.acceptsAll) return { deliverability: 'accept_all', code: fresh.code };
    const probedAcceptAll = options.acceptAllCheck && !fresh;
    // The retry asks for the same recipients: a greylist lets through the (client, sender, recipient) it saw before.
    const recipients = probedAcceptAll ? [`${crypto.randomBytes(8).toString('hex')}-no-such-mailbox@${domain}`, address] : [address];
    const first = answerOf(domain, await converse(host, recipients), probedAcceptAll);
    if (typeof first !== 'number') return first;
    if (options.greylistRetryMs <= 0) return { deliverability: 'unknown', code: first };
    await new Promise((resolve) => setTimeout(resolve, options.greylistRetryMs));
    const second = answerOf(domain, await converse(host, recipients), probedAcceptAll);
    return typeof second === 'number' ? { deliverability: 'unknown', code: second } : second;
  };
}
