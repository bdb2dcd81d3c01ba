import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScraperConfig } from '../../services/scraper/src/config.ts';
import { configuredEmailVerifier } from '../../services/scraper/src/verdicts/configuredEmailVerifier.ts';
import { mailResolverFor } from '../../services/scraper/src/verdicts/dnsMailDomainCheck.ts';
import { startMailWorld, type MailDomain, type MailWorld } from '../support/mailWorld.ts';

// One domain per behaviour of the mail world; the product asks through its configuration, as it ships.
const DOMAINS: Record<string, MailDomain> = {
  'bakery.de': { behaviour: 'mailbox', mailboxes: ['info', 'anna.schmidt'] },
  'fallback.de': { behaviour: 'mailbox', mailboxes: ['info'], addressOnly: true },
  'everyone.de': { behaviour: 'accept_all' },
  'grey.de': { behaviour: 'greylist_once', mailboxes: ['anna'] },
  'full.de': { behaviour: 'tempfail', mailboxes: ['anna'] },
  'slow.de': { behaviour: 'slow', mailboxes: ['anna'] },
  'hangup.de': { behaviour: 'disconnect', mailboxes: ['anna'] },
};

describe('email verification against a mail world on loopback (DNS and SMTP stand-ins)', () => {
  let world: MailWorld;
  beforeAll(async () => { world = await startMailWorld((domain) => DOMAINS[domain], { slowMs: 1500 }); });
  afterAll(async () => { await world?.close(); });

  const verifierFor = (env: Record<string, string> = {}) => {
    const config = loadScraperConfig({ ...world.env(env), SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true' });
    return configuredEmailVerifier(config, mailResolverFor(config.emailMxResolver, config.emailMxTimeoutMs)).verify;
  };

  it.each([
    ['info@bakery.de', 'deliverable', 'role', 250],
    ['anna.schmidt@bakery.de', 'deliverable', 'personal', 250],
    ['karl.gone@bakery.de', 'undeliverable', 'personal', 550],
    ['info@fallback.de', 'deliverable', 'role', 250],
    ['anna@everyone.de', 'accept_all', 'personal', 250],
    ['anna@grey.de', 'deliverable', 'personal', 250],
    ['anna@full.de', 'unknown', 'personal', 452],
    ['anna@slow.de', 'unknown', 'personal', undefined],
    ['anna@hangup.de', 'unknown', 'personal', undefined],
    ['anna@no-such-domain.de', 'undeliverable', 'personal', undefined],
  ])('%s is %s (%s), reply %s', async (email, deliverability, type, code) => {
    const verdict = await verifierFor()(email);
    expect(verdict).toMatchObject({ deliverability, type, checked_at: expect.any(String) });
    expect(verdict.smtp_code).toBe(code);
    if (deliverability !== 'undeliverable' || code) expect(verdict.mx_host).toMatch(/\.(mail\.test|de)$/);
  });

  it('asks a random local part first, never sends DATA, and asks an accept-all domain once for all its addresses', async () => {
    const verify = verifierFor();
    const before = world.connections.length;
    const asked = world.recipients.length;
    expect((await verify('anna@everyone.de')).deliverability).toBe('accept_all');
    expect((await verify('ben@everyone.de')).deliverability).toBe('accept_all');
    expect(world.connections.length - before).toBe(1);
    expect(world.recipients.slice(asked)).toEqual([expect.stringMatching(/-no-such-mailbox@everyone\.de$/)]);
    // The verdict on an address is cached: asking again costs no connection.
    await verify('info@bakery.de');
    const afterFirst = world.connections.length;
    expect(await verify('INFO@bakery.de')).toMatchObject({ deliverability: 'deliverable' });
    expect(world.connections.length).toBe(afterFirst);
  });

  it('retries a greylisted address once, and says unknown when retrying is off', async () => {
    expect(await verifierFor({ EMAIL_SMTP_GREYLIST_RETRY_MS: '0' })('new@grey.de')).toMatchObject({ deliverability: 'unknown', smtp_code: 451 });
  });

  it('says unknown, never a guess, with SMTP off or past a mail host\'s cap', async () => {
    expect(await verifierFor({ EMAIL_SMTP_CHECK: 'false' })('info@bakery.de')).toMatchObject({ deliverability: 'unknown', type: 'role', mx_host: 'mx-mailbox.mail.test' });
    const capped = verifierFor({ EMAIL_SMTP_MX_PROBES_PER_HOUR: '1' });
    expect((await capped('info@bakery.de')).deliverability).toBe('deliverable');
    expect(await capped('anna.schmidt@bakery.de')).toMatchObject({ deliverability: 'unknown' });
  });

  it('skips the accept-all question when switched off', async () => {
    const asked = world.recipients.length;
    expect(await verifierFor({ EMAIL_ACCEPT_ALL_CHECK: 'false' })('anna.schmidt@bakery.de')).toMatchObject({ deliverability: 'deliverable' });
    expect(world.recipients.slice(asked)).toEqual(['anna.schmidt@bakery.de']);
  });
});
