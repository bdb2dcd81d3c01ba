import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { WorkLoop } from '@leadforge/kit/work';
import type { UsageEntry, UsageSink } from '../outbound/outboundClient.ts';
import type { PlacesUsageSink, ProviderName } from '../places/types.ts';
import { outboundBytes, outboundDuration, outboundRequests, providerErrors, providerPlaces, providerRequests } from '../metrics.ts';

interface Pending {
  successful: number;
  failed: number;
  responseMs: number;
  bytes: number;
  pagesGivenUp: number;
  lastAt?: Date;
  domains: Map<string, number>;
  /** Keyed by UTC day and provider: `2026-11-26 osm`. */
  providers: Map<string, ProviderCounts>;
}

interface ProviderCounts {
  requests: number;
  places: number;
  errors: number;
}

const empty = (): Pending => ({ successful: 0, failed: 0, responseMs: 0, bytes: 0, pagesGivenUp: 0, domains: new Map(), providers: new Map() });

function addTo(providers: Map<string, ProviderCounts>, key: string, counts: ProviderCounts): void {
  const row = providers.get(key) ?? { requests: 0, places: 0, errors: 0 };
  row.requests += counts.requests;
  row.places += counts.places;
  row.errors += counts.errors;
  providers.set(key, row);
}

/**
 * Counts requests in memory and adds them to the database every second (on the kit's WorkLoop,
 * pausing with jittered backoff while the database fails): additive updates, so any number of
 * replicas can flush into the same rows. Prometheus sees each request at once. Counts both the
 * outbound requests (proxy usage) and the searches' provider requests per places source and day.
 */
export class UsageRecorder implements UsageSink, PlacesUsageSink {
  private pending = empty();
  private flushing?: Promise<void>;
  private readonly loop: WorkLoop;

  constructor(private readonly db: Db, log: Logger, flushMs = 1_000) {
    this.loop = new WorkLoop({
      name: 'proxy usage recorder',
      logger: log,
      step: () => this.flush(),
      pollMs: flushMs,
      retry: { baseMs: flushMs, maxMs: Math.max(flushMs, 30_000) },
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.flush();
  }

  record(entry: UsageEntry): void {
    const route = entry.proxied ? 'proxy' : 'direct';
    outboundRequests.inc({ outcome: entry.ok ? 'success' : 'failure', route });
    outboundBytes.inc({ route }, entry.bytes);
    outboundDuration.observe({ route }, entry.ms / 1000);
    const p = this.pending;
    if (entry.ok) p.successful++;
    else p.failed++;
    p.responseMs += Math.round(entry.ms);
    p.bytes += entry.bytes;
    p.lastAt = new Date();
    p.domains.set(entry.domain, (p.domains.get(entry.domain) ?? 0) + 1);
  }

  providerRequest(provider: ProviderName): void {
    providerRequests.inc({ source: provider });
    this.countProvider(provider, { requests: 1, places: 0, errors: 0 });
  }

  placesReturned(provider: ProviderName, count: number): void {
    providerPlaces.inc({ source: provider }, count);
    this.countProvider(provider, { requests: 0, places: count, errors: 0 });
  }

  providerFailed(provider: ProviderName): void {
    providerErrors.inc({ source: provider });
    this.countProvider(provider, { requests: 0, places: 0, errors: 1 });
  }

  private countProvider(provider: ProviderName, counts: ProviderCounts): void {
    addTo(this.pending.providers, `${new Date().toISOString().slice(0, 10)} ${provider}`, counts);
  }

  /** A fetched page given up while reading it (see the parsing pool). */
  recordPageGivenUp(): void {
    this.pending.pagesGivenUp++;
  }

  /** Writes what was counted since the last flush; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => { this.flushing = undefined; });
    return this.flushing;
  }

  /** Forgets counts not yet written (after an admin reset). */
  discardPending(): void {
    this.pending = empty();
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    if (!batch.successful && !batch.failed && !batch.pagesGivenUp && !batch.providers.size) return;
    this.pending = empty();
    try {
      await this.db.transaction(async (trx) => {
        await trx('scraper_usage_totals').where({ id: 1 }).update({
          successful: trx.raw('successful + ?', [batch.successful]),
          failed: trx.raw('failed + ?', [batch.failed]),
          response_ms: trx.raw('response_ms + ?', [batch.responseMs]),
          bytes: trx.raw('bytes + ?', [batch.bytes]),
          pages_given_up: trx.raw('pages_given_up + ?', [batch.pagesGivenUp]),
          last_request_at: trx.raw('GREATEST(last_request_at, ?::timestamptz)', [batch.lastAt?.toISOString() ?? null]),
        });
        const rows = [...batch.domains].map(([domain, requests]) => ({ domain, requests }));
        for (let i = 0; i < rows.length; i += 500) {
          await trx('scraper_usage_domains').insert(rows.slice(i, i + 500))
            .onConflict('domain').merge({ requests: trx.raw('scraper_usage_domains.requests + excluded.requests') });
        }
        const providers = [...batch.providers].map(([key, counts]) => {
          const [day, source] = key.split(' ');
          return { day, source, ...counts };
        });
        if (providers.length) {
          await trx('scraper_places_usage').insert(providers).onConflict(['day', 'source']).merge({
            requests: trx.raw('scraper_places_usage.requests + excluded.requests'),
            places: trx.raw('scraper_places_usage.places + excluded.places'),
            errors: trx.raw('scraper_places_usage.errors + excluded.errors'),
          });
        }
      });
    } catch (error) {
      this.merge(batch);
      throw error;
    }
  }

  /** Puts a batch that could not be written back in front of the counts since. */
  private merge(batch: Pending): void {
    const p = this.pending;
    p.successful += batch.successful;
    p.failed += batch.failed;
    p.responseMs += batch.responseMs;
    p.bytes += batch.bytes;
    p.pagesGivenUp += batch.pagesGivenUp;
    p.lastAt = p.lastAt ?? batch.lastAt;
    for (const [domain, count] of batch.domains) p.domains.set(domain, (p.domains.get(domain) ?? 0) + count);
    for (const [key, counts] of batch.providers) addTo(p.providers, key, counts);
  }
}
