import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { EventData } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import type { ScraperConfig } from '../config.ts';
import type { Place } from '../places/index.ts';
import { businessKeysOfPlace, type Coverage } from '../places/coveredSearch.ts';
import type { PlacesSearch } from '../places/placesSearchFor.ts';
import { contactKeyOf, countryCodeOf, leadOfPlace, placeKeyOf, type Lead } from './leadOfPlace.ts';
import type { SiteEnricher } from '../crawl/siteEnrichment.ts';
import { withEmailVerdict } from './emailVerdictOfLead.ts';
import type { EmailVerifier } from '../verdicts/emailVerdict.ts';
import { isOutboundError } from '@leadforge/kit/outbound';
import { KnownBusinesses } from '@leadforge/contracts/businessKeys.ts';
import { leadsDelivered, placesEnriched, searchesFinished } from '../metrics.ts';
import { foundEmptyWithin, recordSiteFindings } from '../crawl/emptySites.ts';
import type { Lease } from '@leadforge/kit/work';
import { addProgress, contactKeysTaken, processedPlaceKeys, recordPlaces, type JobRow, type PlaceRecord } from './jobStore.ts';
import { OrderedBatcher } from './orderedBatcher.ts';
import { failureCodeOf, PlacesFailure } from '../places/placesFailure.ts';

export type FinishReason = EventData<'scrape.finished'>['reason'];
type SourceFailure = NonNullable<EventData<'scrape.finished'>['failure']>;
/** Why a run stops: a finish reason, or a reason to leave the job to another worker. */
export type StopReason = FinishReason | 'lease_lost' | 'shutdown';

export interface SearchRunDeps {
  db: Db;
  placesSearch: PlacesSearch;
  enrich: SiteEnricher;
  /** The verdict on each lead's email; absent: no check is made (only a malformed address is judged). */
  verifyEmail?: EmailVerifier;
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
 * One search, from its places to its last lead, under the lease of its job. Results are committed in
 * small batches, in the order the places came (so the same places give the same leads however fast
 * each site answers); each commit locks the job row through the lease (a fence against a replica
 * that lost its lease), records every place it dealt with, skips leads whose contact was already
 * sent, never sends more than the quantity, and writes the events to the outbox in the same
 * transaction. A worker that takes the job over skips the places already recorded.
 */
export class SearchRun {
  private readonly controller = new AbortController();
  private readonly results: OrderedBatcher<PlaceResult>;
  private readonly inFlight = new Set<Promise<void>>();
  private processed = new Set<string>();
  private placesSeen = 0;
  /** Places skipped as businesses the user already has (the same count again after a takeover: it walks the same places). */
  private knownSkipped = 0;
  private readonly known: KnownBusinesses;
  private readonly knownPlaces: number;
  private sent: number;
  private stopReason?: StopReason;
  private sourceError?: string;
  private sourceFailure?: SourceFailure;
  private coverage: () => Coverage | undefined = () => undefined;
  private changed?: () => void;
  private readonly job: JobRow;

  constructor(private readonly lease: Lease<JobRow>, private readonly deps: SearchRunDeps) {
    this.job = lease.row;
    this.sent = this.job.leads_sent;
    this.known = new KnownBusinesses(this.job.known_business_keys ?? []);
    this.knownPlaces = (this.job.known_business_keys ?? []).filter((key) => key.startsWith('place:')).length;
    this.results = new OrderedBatcher((batch) => this.commit(batch), (error) => {
      if (error instanceof LeaseLost) {
        this.stop('lease_lost');
        return false;
      }
      this.deps.log.warn({ err: error, searchId: this.job.search_id }, 'could not commit search results; will retry');
      return true;
    });
    // Every fetch in flight for this search listens to its signal: many listeners are expected.
    setMaxListeners(0, this.controller.signal);
  }

  /** Leads found and not yet committed. */
  private get pendingLeads(): number {
    return this.results.waiting((result) => Boolean(result.lead));
  }

  /** Runs until the search finishes or the worker gives it up; the lease's signal carries the worker's reasons. */
  async run(): Promise<StopReason> {
    const { job } = this;
    const external = this.lease.signal;
    if (job.cancel_requested) return this.finish('cancelled');
    if (new Date(job.deadline_at).getTime() <= Date.now()) return this.finish('deadline');
    if (job.attempts > this.deps.jobs.maxAttempts) return this.finish('source_failed', `Gave up after ${job.attempts - 1} attempts that did not finish`);
    if (this.sent >= job.quantity) return this.finish('done');

    const onExternal = () => this.stop(external.reason as StopReason);
    if (external.aborted) onExternal();
    external.addEventListener('abort', onExternal, { once: true });
    const deadline = setTimeout(() => this.stop('deadline'), Math.min(new Date(job.deadline_at).getTime() - Date.now(), 2 ** 31 - 1));
    const ticker = setInterval(() => void this.results.flush(), Math.max(50, this.deps.jobs.leadBatchMs));
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
      this.results.releaseAhead();
      await this.results.flush();
    }
    const reason: StopReason = this.stopReason ?? (this.sourceError ? 'source_failed' : 'done');
    if (reason === 'lease_lost' || reason === 'shutdown') return reason;
    return reason === 'source_failed' ? this.finish(reason, this.sourceError, this.sourceFailure) : this.finish(reason);
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
      const search = this.deps.placesSearch({ industry: job.industry, location: job.location, limit: placesWanted(job.quantity + this.knownPlaces) }, signal);
      this.coverage = search.coverage;
      for await (const place of search.places) {
        if (this.stopReason) break;
        this.placesSeen++;
        const key = placeKeyOf(place);
        if (this.processed.has(key)) continue;
        this.processed.add(key);
        const businessKeys = businessKeysOfPlace(place);
        if (this.known.has(businessKeys)) {
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
        const candidates = error instanceof PlacesFailure ? error.candidates.slice(0, 10).map((name) => storableText(name).slice(0, 300)) : [];
        this.sourceFailure = { code: failureCodeOf(error), ...(candidates.length ? { candidates } : {}) };
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
    const task = this.process(place, siteKey, this.results.ticket()).finally(() => {
      this.inFlight.delete(task);
      this.notify();
    });
    this.inFlight.add(task);
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
      const lead = await withEmailVerdict(leadOfPlace(place, site), this.deps.verifyEmail);
      const finding = site?.foundNothing ? 'empty' : site?.emails.length || site?.phones.length ? 'contacts' : undefined;
      this.results.settle(order, {
        placeKey, lead, outcome: lead ? 'lead' : site && !site.reached ? 'failed' : 'no_contact', checkedWebsite: Boolean(website),
        ...(siteKey && finding ? { site: { key: siteKey, finding } } : {}),
      });
      // What the pages read before the quota ran out gave still counts; the search ends here.
      if (site?.quotaExhausted) return this.stop('quota_exhausted');
      // The first lead goes out at once (time to first lead is what the user feels); later ones in batches.
      const firstLead = this.sent === 0 && this.results.someReady((result) => Boolean(result.lead));
      const pendingLeads = this.pendingLeads;
      if (firstLead || pendingLeads >= this.deps.jobs.leadBatchSize || this.sent + pendingLeads >= this.job.quantity) void this.results.flush();
    } catch (error) {
      if (this.stopReason || isOutboundError(error, 'aborted')) return;
      if (isOutboundError(error, 'quota_exhausted')) return this.stop('quota_exhausted');
      this.deps.log.warn({ err: error, searchId: this.job.search_id, placeKey }, 'could not process a place');
      this.results.settle(order, { placeKey, outcome: 'failed', checkedWebsite: Boolean(place.website) });
    }
  }

  /** Commits one batch of results, if this run still holds the job's lease. */
  private async commit(batch: PlaceResult[]): Promise<void> {
    // The lease is gone: nothing of this run may be committed any more.
    if (this.stopReason === 'lease_lost') return;
    const { search_id: searchId } = this.job;
    let sentNow: Lead[] = [];
    let cancelled = false;
    try {
      const row = await this.deps.db.transaction(async (trx) => {
        const job = await this.lease.hold(trx);
        if (!job) throw new LeaseLost();
        if (job.cancel_requested) {
          cancelled = true;
          return job;
        }
        const leads = batch.flatMap((result) => (result.lead ? [result.lead] : []));
        const taken = await contactKeysTaken(trx, searchId, leads.map(contactKeyOf));
        let room = job.quantity - job.leads_sent;
        const places: PlaceRecord[] = [];
        for (const result of batch) {
          if (!result.lead) {
            places.push({ search_id: searchId, place_key: result.placeKey, outcome: result.outcome, contact_key: null });
            continue;
          }
          const contactKey = contactKeyOf(result.lead);
          if (taken.has(contactKey)) {
            places.push({ search_id: searchId, place_key: result.placeKey, outcome: 'duplicate', contact_key: null });
          } else if (room > 0) {
            taken.add(contactKey);
            room--;
            places.push({ search_id: searchId, place_key: result.placeKey, outcome: 'lead', contact_key: contactKey });
          }
          // Past the quantity a lead is neither sent nor recorded: the search is complete.
        }
        const inserted = await recordPlaces(trx, places);
        sentNow = batch.flatMap((result) => {
          const place = places.find((candidate) => candidate.place_key === result.placeKey);
          return result.lead && place?.outcome === 'lead' && inserted.has(result.placeKey) ? [result.lead] : [];
        });
        const updated = await addProgress(trx, searchId, {
          placesSeen: this.placesSeen, knownSkipped: this.knownSkipped, websitesChecked: batch.filter((result) => result.checkedWebsite).length, sent: sentNow,
        });
        if (sentNow.length) await emitEvent(trx, 'scrape.leads_found', searchId, { search_id: searchId, leads: sentNow });
        const coverage = storableCoverage(this.coverage());
        await emitEvent(trx, 'scrape.progress', searchId, {
          search_id: searchId, places_found: updated.places_found, websites_checked: updated.websites_checked, leads_found: updated.leads_sent,
          ...(coverage ? { coverage } : {}),
        });
        return updated;
      });
      if (cancelled) return this.stop('cancelled');
      await this.rememberSites(batch);
      this.sent = row.leads_sent;
      leadsDelivered.inc(sentNow.length);
      for (const result of batch) placesEnriched.inc({ outcome: result.lead && !sentNow.includes(result.lead) ? 'duplicate' : result.outcome });
      if (this.sent >= this.job.quantity) this.stop('done');
    } finally {
      this.notify();
    }
  }

  /** Closes the job and announces the outcome with its stats, if this worker still owns it. */
  private async finish(reason: FinishReason, rawError?: string, failure?: SourceFailure): Promise<StopReason> {
    const { search_id: searchId } = this.job;
    const error = rawError === undefined ? undefined : storableText(rawError);
    const finished = await this.deps.db.transaction(async (trx) => {
      const job = await this.lease.hold(trx);
      if (!job) return false;
      const knownSkipped = Math.max(job.known_skipped, this.knownSkipped);
      // The job's outcome, recorded with the event that announces it.
      await this.lease.settle(trx, { kind: 'done' }, { known_skipped: knownSkipped, finish_reason: reason, error: error ?? null });
      const coverage = storableCoverage(this.coverage());
      await emitEvent(trx, 'scrape.finished', searchId, {
        search_id: searchId,
        reason,
        ...(coverage ? { coverage } : {}),
        stats: {
          total_found: job.leads_sent, with_email: job.with_email, with_phone: job.with_phone, with_website: job.with_website,
          ...(this.known.size ? { known_skipped: knownSkipped } : {}),
        },
        ...(error ? { error: error.slice(0, 1000) } : {}),
        ...(failure ? { failure } : {}),
      });
      return true;
    });
    if (!finished) return 'lease_lost';
    searchesFinished.inc({ reason });
    this.deps.log.info({ searchId, reason, leads: this.sent }, 'search finished');
    return reason;
  }
}
