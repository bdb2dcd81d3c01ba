import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { EventData } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import type { ScraperConfig } from '../config.ts';
import type { Place } from '../places/index.ts';
import type { Coverage } from '../places/coveredSearch.ts';
import type { PlacesSearch } from '../places/placesSearchFor.ts';
import { contactKeyOf, countryCodeOf, leadOfPlace, placeKeyOf, type Lead } from './leadOfPlace.ts';
import type { SiteEnricher } from '../crawl/siteEnrichment.ts';
import { withEmailVerdict } from './emailVerdictOfLead.ts';
import type { MailDomainLookup } from '../verdicts/emailVerdict.ts';
import { isOutboundError } from '@leadforge/kit/outbound';
import { placeBusinessKeysOf } from '@leadforge/contracts/businessKeys.ts';
import { leadsDelivered, placesEnriched, searchesFinished } from '../metrics.ts';
import { foundEmptyWithin, recordSiteFindings } from '../crawl/emptySites.ts';
import { contactKeysTaken, lockOwnedJob, processedPlaceKeys, type JobRow } from './jobStore.ts';

export type FinishReason = EventData<'scrape.finished'>['reason'];
/** Why a run stops: a finish reason, or a reason to leave the job to another worker. */
export type StopReason = FinishReason | 'lease_lost' | 'shutdown';

export interface SearchRunDeps {
  db: Db;
  owner: string;
  placesSearch: PlacesSearch;
  enrich: SiteEnricher;
  /** Whether email domains take mail, for the verdicts; absent when EMAIL_MX_CHECK=false (verdict `unknown`). */
  mailLookup?: MailDomainLookup;
  jobs: ScraperConfig['jobs'];
  /** SCRAPER_EMPTY_SITE_CACHE_HOURS: a monitor's run skips a site found empty this recently (0 or absent: never). */
  emptySiteCacheHours?: number;
  log: Logger;
}

interface PlaceResult {
  placeKey: string;
  lead?: Lead;
  outcome: 'lead' | 'no_contact' | 'failed';
  checkedWebsite: boolean;
  /** What this crawl found of the place's website (by its site key), to remember for monitors' runs. */
  site?: { key: string; finding: 'empty' | 'contacts' };
}

class LeaseLost extends Error {}

/**
 * An error text PostgreSQL can store (text and jsonb refuse NUL): a provider's binary answer
 * quoted in a message must not keep the job from finishing.
 */
const storableText = (text: string): string => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\ufffd');

/** The coverage with its sources' error texts made storable (they quote providers' answers too). */
function storableCoverage(coverage: Coverage | undefined): Coverage | undefined {
  if (!coverage) return undefined;
  const sources = Object.fromEntries(Object.entries(coverage.sources).map(([name, source]) => [
    name, source.error === undefined ? source : { ...source, error: storableText(source.error).slice(0, 1000) },
  ]));
  return { ...coverage, sources };
}

/** How many places a search asks its source for: enough that sites without contacts do not leave it short. */
export const placesWanted = (quantity: number): number => Math.min(quantity * 3 + 10, 1000);

/**
 * One search, from its places to its last lead. Results are committed in small batches; each
 * commit locks the job row and checks this worker still owns the job (a fence against a replica
 * that lost its lease), records every place it dealt with, skips leads whose contact was already
 * sent, never sends more than the quantity, and writes the events to the outbox in the same
 * transaction. A worker that takes the job over skips the places already recorded.
 */
export class SearchRun {
  private readonly controller = new AbortController();
  private readonly pending: PlaceResult[] = [];
  /**
   * Results wait here until every place before them has one: they are committed in the order the
   * places came, so the same places give the same leads however fast each site answers.
   */
  private readonly resultsAhead = new Map<number, PlaceResult>();
  private launched = 0;
  private inOrder = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private processed = new Set<string>();
  private placesSeen = 0;
  /** Places skipped as businesses the user already has (the same count again after a takeover: it walks the same places). */
  private knownSkipped = 0;
  private readonly knownKeys: Set<string>;
  private pendingLeads = 0;
  private sent: number;
  private stopReason?: StopReason;
  private sourceError?: string;
  private coverage: () => Coverage | undefined = () => undefined;
  private flushing: Promise<void> = Promise.resolve();
  private changed?: () => void;

  constructor(private readonly job: JobRow, private readonly deps: SearchRunDeps) {
    this.sent = job.leads_sent;
    this.knownKeys = new Set(job.known_business_keys ?? []);
    // Every fetch in flight for this search listens to its signal: many listeners are expected.
    setMaxListeners(0, this.controller.signal);
  }

  /** Runs until the search finishes or the worker gives it up; `external` carries the worker's reasons. */
  async run(external: AbortSignal): Promise<StopReason> {
    const { job } = this;
    if (job.cancel_requested) return this.finish('cancelled');
    if (new Date(job.deadline_at).getTime() <= Date.now()) return this.finish('deadline');
    if (job.attempts > this.deps.jobs.maxAttempts) return this.finish('source_failed', `Gave up after ${job.attempts - 1} attempts that did not finish`);
    if (this.sent >= job.quantity) return this.finish('done');

    const onExternal = () => this.stop(external.reason as StopReason);
    if (external.aborted) onExternal();
    external.addEventListener('abort', onExternal, { once: true });
    const deadline = setTimeout(() => this.stop('deadline'), Math.min(new Date(job.deadline_at).getTime() - Date.now(), 2 ** 31 - 1));
    const ticker = setInterval(() => void this.flush(), Math.max(50, this.deps.jobs.leadBatchMs));
    try {
      this.processed = await processedPlaceKeys(this.deps.db, job.search_id);
      await this.walkPlaces();
      await Promise.allSettled([...this.inFlight]);
    } finally {
      clearTimeout(deadline);
      clearInterval(ticker);
      external.removeEventListener('abort', onExternal);
    }
    if (this.stopReason !== 'lease_lost') {
      // A run that stopped leaves places unanswered: what the others gave still counts.
      this.pending.push(...[...this.resultsAhead.entries()].sort(([a], [b]) => a - b).map(([, result]) => result));
      this.resultsAhead.clear();
      await this.flush();
    }
    const reason: StopReason = this.stopReason ?? (this.sourceError ? 'source_failed' : 'done');
    if (reason === 'lease_lost' || reason === 'shutdown') return reason;
    return this.finish(reason, reason === 'source_failed' ? this.sourceError : undefined);
  }

  private stop(reason: StopReason): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.controller.abort(reason);
    this.notify();
  }

  private notify(): void {
    const wake = this.changed;
    this.changed = undefined;
    wake?.();
  }

  private async walkPlaces(): Promise<void> {
    const { job } = this;
    const signal = this.controller.signal;
    try {
      // Known places come back from the source too: ask for them on top of the wanted ones.
      const knownPlaces = [...this.knownKeys].filter((key) => key.startsWith('place:')).length;
      const search = this.deps.placesSearch({ industry: job.industry, location: job.location, limit: placesWanted(job.quantity + knownPlaces) }, signal);
      this.coverage = search.coverage;
      for await (const place of search.places) {
        if (this.stopReason) break;
        this.placesSeen++;
        const key = placeKeyOf(place);
        if (this.processed.has(key)) continue;
        this.processed.add(key);
        const businessKeys = placeBusinessKeysOf(key, place.website);
        if (businessKeys.some((known) => this.knownKeys.has(known))) {
          this.knownSkipped++;
          continue;
        }
        while (!this.stopReason && this.inFlight.size >= this.allowedInFlight()) {
          await new Promise<void>((resolve) => { this.changed = resolve; });
        }
        if (this.stopReason) break;
        this.launch(place, businessKeys.find((businessKey) => businessKey.startsWith('site:')));
      }
    } catch (error) {
      if (!this.stopReason) {
        this.sourceError = (error as Error).message;
        this.deps.log.warn({ err: error, searchId: job.search_id }, 'places source failed');
      }
    }
  }

  /** Enough places in flight to fill the rest of the quantity, within the configured bound. */
  private allowedInFlight(): number {
    const remaining = this.job.quantity - this.sent - this.pendingLeads;
    if (remaining <= 0) return 0;
    return Math.min(this.deps.jobs.placeConcurrency, Math.max(4, remaining * 2));
  }

  private launch(place: Place, siteKey: string | undefined): void {
    const task = this.process(place, siteKey, this.launched++).finally(() => {
      this.inFlight.delete(task);
      this.notify();
    });
    this.inFlight.add(task);
  }

  private settle(order: number, result: PlaceResult): void {
    this.resultsAhead.set(order, result);
    for (let next = this.resultsAhead.get(this.inOrder); next; next = this.resultsAhead.get(this.inOrder)) {
      this.pending.push(next);
      this.resultsAhead.delete(this.inOrder++);
    }
  }

  /**
   * A monitor's run reuses what a recent crawl found: a site found without contacts is not fetched
   * again (the place still counts, with only its listing's own contacts). A search always crawls.
   */
  private async knownEmpty(siteKey: string | undefined): Promise<boolean> {
    const hours = this.deps.emptySiteCacheHours ?? 0;
    if (!this.job.monitor_run || hours <= 0 || !siteKey) return false;
    // A cache: when it cannot be read, the site is crawled, so it never costs a lead.
    return foundEmptyWithin(this.deps.db, siteKey, hours).catch((error: unknown) => {
      this.deps.log.warn({ err: error, searchId: this.job.search_id, siteKey }, 'could not read the sites found empty; crawling');
      return false;
    });
  }

  /** Remembers what this batch's crawls found, after its commit: a cache that fails costs no lead and holds no batch back. */
  private async rememberSites(batch: PlaceResult[]): Promise<void> {
    const hours = this.deps.emptySiteCacheHours ?? 0;
    // With the cache off nothing reads the findings.
    if (hours <= 0) return;
    try {
      await recordSiteFindings(
        this.deps.db,
        batch.flatMap((result) => (result.site?.finding === 'empty' ? [result.site.key] : [])),
        batch.flatMap((result) => (result.site?.finding === 'contacts' ? [result.site.key] : [])),
        hours,
      );
    } catch (error) {
      this.deps.log.warn({ err: error, searchId: this.job.search_id }, 'could not remember the sites found empty');
    }
  }

  private async process(place: Place, siteKey: string | undefined, order: number): Promise<void> {
    const signal = this.controller.signal;
    const placeKey = placeKeyOf(place);
    try {
      const website = place.website && !(await this.knownEmpty(siteKey)) ? place.website : undefined;
      const site = website ? await this.deps.enrich(website, countryCodeOf(place), signal) : undefined;
      if (this.stopReason) return;
      const lead = await withEmailVerdict(leadOfPlace(place, site), this.deps.mailLookup);
      const finding = site?.foundNothing ? 'empty' : site?.emails.length || site?.phones.length ? 'contacts' : undefined;
      this.settle(order, {
        placeKey, lead, outcome: lead ? 'lead' : site && !site.reached ? 'failed' : 'no_contact', checkedWebsite: Boolean(website),
        ...(siteKey && finding ? { site: { key: siteKey, finding } } : {}),
      });
      if (lead) this.pendingLeads++;
      // What the pages read before the quota ran out gave still counts; the search ends here.
      if (site?.quotaExhausted) return this.stop('quota_exhausted');
      // The first lead goes out at once (time to first lead is what the user feels); later ones in batches.
      const firstLead = this.sent === 0 && this.pending.some((result) => result.lead);
      if (firstLead || this.pendingLeads >= this.deps.jobs.leadBatchSize || this.sent + this.pendingLeads >= this.job.quantity) void this.flush();
    } catch (error) {
      if (this.stopReason || isOutboundError(error, 'aborted')) return;
      if (isOutboundError(error, 'quota_exhausted')) return this.stop('quota_exhausted');
      this.deps.log.warn({ err: error, searchId: this.job.search_id, placeKey }, 'could not process a place');
      this.settle(order, { placeKey, outcome: 'failed', checkedWebsite: Boolean(place.website) });
    }
  }

  /** Commits what is pending; one commit at a time, in order. */
  private flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.commitPending()).catch((error) => {
      if (error instanceof LeaseLost) return this.stop('lease_lost');
      this.deps.log.warn({ err: error, searchId: this.job.search_id }, 'could not commit search results; will retry');
    });
    return this.flushing;
  }

  private async commitPending(): Promise<void> {
    if (!this.pending.length || this.stopReason === 'lease_lost') return;
    const batch = this.pending.splice(0);
    const batchLeads = batch.filter((result) => result.lead).length;
    this.pendingLeads -= batchLeads;
    const { search_id: searchId } = this.job;
    let sentNow: Lead[] = [];
    let cancelled = false;
    try {
      const row = await this.deps.db.transaction(async (trx) => {
        const job = await lockOwnedJob(trx, searchId, this.deps.owner);
        if (!job) throw new LeaseLost();
        if (job.cancel_requested) {
          cancelled = true;
          return job;
        }
        const leads = batch.flatMap((result) => (result.lead ? [result.lead] : []));
        const taken = await contactKeysTaken(trx, searchId, leads.map(contactKeyOf));
        let room = job.quantity - job.leads_sent;
        const rows: { search_id: string; place_key: string; outcome: string; contact_key: string | null }[] = [];
        for (const result of batch) {
          if (!result.lead) {
            rows.push({ search_id: searchId, place_key: result.placeKey, outcome: result.outcome, contact_key: null });
            continue;
          }
          const contactKey = contactKeyOf(result.lead);
          if (taken.has(contactKey)) {
            rows.push({ search_id: searchId, place_key: result.placeKey, outcome: 'duplicate', contact_key: null });
          } else if (room > 0) {
            taken.add(contactKey);
            room--;
            rows.push({ search_id: searchId, place_key: result.placeKey, outcome: 'lead', contact_key: contactKey });
          }
          // Past the quantity a lead is neither sent nor recorded: the search is complete.
        }
        const inserted = new Set((rows.length
          ? await trx('scraper_job_places').insert(rows).onConflict(['search_id', 'place_key']).ignore().returning('place_key')
          : []).map((r: { place_key: string }) => r.place_key));
        sentNow = batch.flatMap((result) => {
          const row = rows.find((candidate) => candidate.place_key === result.placeKey);
          return result.lead && row?.outcome === 'lead' && inserted.has(result.placeKey) ? [result.lead] : [];
        });
        const websites = batch.filter((result) => result.checkedWebsite).length;
        const [updated] = await trx('scraper_jobs').where({ search_id: searchId }).update({
          places_found: trx.raw('GREATEST(places_found, ?)', [this.placesSeen]),
          known_skipped: trx.raw('GREATEST(known_skipped, ?)', [this.knownSkipped]),
          websites_checked: trx.raw('websites_checked + ?', [websites]),
          leads_sent: trx.raw('leads_sent + ?', [sentNow.length]),
          with_email: trx.raw('with_email + ?', [sentNow.filter((lead) => lead.email).length]),
          with_phone: trx.raw('with_phone + ?', [sentNow.filter((lead) => lead.phone).length]),
          with_website: trx.raw('with_website + ?', [sentNow.filter((lead) => lead.website).length]),
          updated_at: trx.fn.now(),
        }).returning('*');
        if (sentNow.length) await emitEvent(trx, 'scrape.leads_found', searchId, { search_id: searchId, leads: sentNow });
        const coverage = storableCoverage(this.coverage());
        await emitEvent(trx, 'scrape.progress', searchId, {
          search_id: searchId, places_found: updated.places_found, websites_checked: updated.websites_checked, leads_found: updated.leads_sent,
          ...(coverage ? { coverage } : {}),
        });
        return updated as JobRow;
      });
      if (cancelled) return this.stop('cancelled');
      await this.rememberSites(batch);
      this.sent = row.leads_sent;
      leadsDelivered.inc(sentNow.length);
      for (const result of batch) placesEnriched.inc({ outcome: result.lead && !sentNow.includes(result.lead) ? 'duplicate' : result.outcome });
      if (this.sent >= this.job.quantity) this.stop('done');
    } catch (error) {
      if (!(error instanceof LeaseLost)) {
        this.pending.unshift(...batch);
        this.pendingLeads += batchLeads;
      }
      throw error;
    } finally {
      this.notify();
    }
  }

  /** Closes the job and announces the outcome with its stats, if this worker still owns it. */
  private async finish(reason: FinishReason, rawError?: string): Promise<StopReason> {
    const { search_id: searchId } = this.job;
    const error = rawError === undefined ? undefined : storableText(rawError);
    const finished = await this.deps.db.transaction(async (trx) => {
      const job = await lockOwnedJob(trx, searchId, this.deps.owner);
      if (!job) return false;
      const knownSkipped = Math.max(job.known_skipped, this.knownSkipped);
      await trx('scraper_jobs').where({ search_id: searchId }).update({
        known_skipped: knownSkipped,
        state: 'finished', finish_reason: reason, error: error ?? null, finished_at: trx.fn.now(), updated_at: trx.fn.now(),
        lease_owner: null, lease_replica: null, lease_expires_at: null,
      });
      const coverage = storableCoverage(this.coverage());
      await emitEvent(trx, 'scrape.finished', searchId, {
        search_id: searchId,
        reason,
        ...(coverage ? { coverage } : {}),
        stats: {
          total_found: job.leads_sent, with_email: job.with_email, with_phone: job.with_phone, with_website: job.with_website,
          ...(this.knownKeys.size ? { known_skipped: knownSkipped } : {}),
        },
        ...(error ? { error: error.slice(0, 1000) } : {}),
      });
      return true;
    });
    if (!finished) return 'lease_lost';
    searchesFinished.inc({ reason });
    this.deps.log.info({ searchId, reason, leads: this.sent }, 'search finished');
    return reason;
  }
}
