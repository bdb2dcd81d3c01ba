// Email verification over the mail world (test/support/mailWorld.ts): verdict precision, the
// unknown share, probes per MX host per minute and verdict latency, with the product's default
// pacing (one probe per MX host a second). Greylisting's retry wait is shortened (stated below).
import { loadScraperConfig } from '../services/scraper/src/config.ts';
import { configuredEmailVerifier } from '../services/scraper/src/verdicts/configuredEmailVerifier.ts';
import { mailResolverFor } from '../services/scraper/src/verdicts/dnsMailDomainCheck.ts';
import type { EmailDeliverability } from '../services/scraper/src/verdicts/emailVerdict.ts';
import { startMailWorld, type MailDomain } from '../test/support/mailWorld.ts';
import { reportFigures } from './benchResults.ts';

const TARGETS = { deliverablePrecision: 0.99, unknownShareMax: 0.05, probesPerMxHostPerSecondMax: 1 };
const GREYLIST_RETRY_MS = 2000;

// A mix like a local-business search's: most domains at ordinary mail servers (one existing, one
// made-up mailbox each), some accepting everything, some greylisting, and one each that fails.
const domains = new Map<string, MailDomain>();
const addresses: { email: string; truth: EmailDeliverability }[] = [];
for (let i = 0; i < 20; i++) {
  domains.set(`shop-${i}.test`, { behaviour: 'mailbox', mailboxes: ['anna.berger'] });
  addresses.push({ email: `anna.berger@shop-${i}.test`, truth: 'deliverable' }, { email: `left.company@shop-${i}.test`, truth: 'undeliverable' });
}
for (let i = 0; i < 5; i++) {
  domains.set(`open-${i}.test`, { behaviour: 'accept_all' });
  addresses.push({ email: `info@open-${i}.test`, truth: 'accept_all' }, { email: `karl@open-${i}.test`, truth: 'accept_all' });
}
for (let i = 0; i < 4; i++) {
  domains.set(`grey-${i}.test`, { behaviour: 'greylist_once', mailboxes: ['office'] });
  addresses.push({ email: `office@grey-${i}.test`, truth: 'deliverable' }, { email: `gone@grey-${i}.test`, truth: 'undeliverable' });
}
domains.set('full.test', { behaviour: 'tempfail', mailboxes: ['anna'] });
domains.set('slow.test', { behaviour: 'slow', mailboxes: ['anna'] });
domains.set('hangup.test', { behaviour: 'disconnect', mailboxes: ['anna'] });
addresses.push({ email: 'anna@full.test', truth: 'deliverable' }, { email: 'anna@slow.test', truth: 'deliverable' }, { email: 'anna@hangup.test', truth: 'deliverable' });

const world = await startMailWorld((domain) => domains.get(domain), { slowMs: 10_000 });
try {
  const config = loadScraperConfig({
    EMAIL_MX_RESOLVER: world.dns, EMAIL_SMTP_PROBE_PORT: String(world.port), EMAIL_SMTP_PROBE_HELO: 'verify.leadforge.test',
    EMAIL_SMTP_GREYLIST_RETRY_MS: String(GREYLIST_RETRY_MS), SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const { verify } = configuredEmailVerifier(config, mailResolverFor(config.emailMxResolver, config.emailMxTimeoutMs));
  const started = Date.now();
  const results = await Promise.all(addresses.map(async (address) => {
    const at = Date.now();
    const verdict = await verify(address.email);
    return { ...address, verdict: verdict.deliverability, ms: Date.now() - at };
  }));
  const elapsedMs = Date.now() - started;

  const labelled = (label: EmailDeliverability) => results.filter((result) => result.verdict === label);
  const precisionOf = (label: EmailDeliverability) => {
    const said = labelled(label);
    return said.length ? round(said.filter((result) => result.truth === label).length / said.length) : null;
  };
  const latencies = results.map((result) => result.ms).sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
  // The most probes one host had in any minute, and the shortest gap between two probes of one host.
  const byHost = new Map<string, number[]>();
  for (const connection of world.connections) byHost.set(connection.host, [...(byHost.get(connection.host) ?? []), connection.at]);
  let busiestMinute = 0;
  let shortestGapMs = Infinity;
  for (const starts of byHost.values()) {
    starts.sort((a, b) => a - b);
    for (let i = 0; i < starts.length; i++) {
      busiestMinute = Math.max(busiestMinute, starts.filter((at) => at >= starts[i] && at < starts[i] + 60_000).length);
      if (i > 0) shortestGapMs = Math.min(shortestGapMs, starts[i] - starts[i - 1]);
    }
  }
  const figures = {
    addresses: results.length,
    mix: '20 ordinary domains (1 existing + 1 made-up mailbox each), 5 accept-all (2 each), 4 greylisting once (2 each), 1 tempfail, 1 slow past the timeout, 1 disconnecting',
    greylistRetryMs: GREYLIST_RETRY_MS,
    deliverablePrecision: precisionOf('deliverable'),
    undeliverablePrecision: precisionOf('undeliverable'),
    acceptAllPrecision: precisionOf('accept_all'),
    unknownShare: round(labelled('unknown').length / results.length),
    deliverableRecall: round(labelled('deliverable').filter((result) => result.truth === 'deliverable').length / results.filter((result) => result.truth === 'deliverable').length),
    probes: world.connections.length,
    mxHosts: byHost.size,
    probesPerMxHostBusiestMinute: busiestMinute,
    shortestGapBetweenProbesOfOneHostMs: Number.isFinite(shortestGapMs) ? shortestGapMs : null,
    latencyP50Ms: percentile(0.5),
    latencyP95Ms: percentile(0.95),
    elapsedMs,
  };
  const met = (figures.deliverablePrecision ?? 0) >= TARGETS.deliverablePrecision && figures.unknownShare <= TARGETS.unknownShareMax
    && (figures.shortestGapBetweenProbesOfOneHostMs ?? Infinity) >= 1000 / TARGETS.probesPerMxHostPerSecondMax;
  console.log(`verification: deliverable precision ${figures.deliverablePrecision}, unknown ${figures.unknownShare}, busiest host ${busiestMinute} probes/min, p50 ${figures.latencyP50Ms} ms, p95 ${figures.latencyP95Ms} ms`);
  reportFigures('verification', { ...figures, targets: TARGETS, met });
  if (!met) process.exitCode = 1;
} finally {
  await world.close();
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
