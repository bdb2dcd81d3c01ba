import { Type, type Static, type TSchema } from 'typebox';
import { Role, UserStatus } from './api/common.ts';
import { Lead, SearchCoverage } from './api/leads.ts';
import { SearchFailureCode } from './api/locations.ts';

/** The envelope every event travels in (docs/architecture.md, "Events"). */
export const EventEnvelope = Type.Object({
  id: Type.String(),
  type: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  occurred_at: Type.String(),
  key: Type.String(),
  data: Type.Unknown(),
  traceparent: Type.Optional(Type.String()),
});
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  version: number;
  occurred_at: string;
  key: string;
  data: T;
  traceparent?: string;
}

/** One topic per aggregate; the key is the aggregate id so order holds per key. */
export const TOPICS = {
  authUser: 'auth.user',
  billingCredits: 'billing.credits',
  billingPurchase: 'billing.purchase',
  leadsSearch: 'leads.search',
  scraperResult: 'scraper.result',
  affiliateCommission: 'affiliate.commission',
  contactSubmission: 'contact.submission',
  adminAction: 'admin.action',
} as const;
export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

/**
 * Topics whose whole history Kafka keeps (retention.ms=-1): the admin read models are rebuilt by
 * replaying them from the start (docs/admin.md), so deleting old segments would lose those figures.
 * The others keep the chart's retention window.
 */
export const KEPT_TOPICS: readonly Topic[] = [TOPICS.authUser, TOPICS.billingCredits, TOPICS.billingPurchase, TOPICS.leadsSearch, TOPICS.contactSubmission];

export const UserRegistered = Type.Object({
  user_id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: Role,
  status: UserStatus,
  created_at: Type.String(),
  referral_code: Type.Optional(Type.String()),
  promo_code: Type.Optional(Type.String()),
  order_id: Type.Optional(Type.String()),
  /** SHA-256 (hex) of the promo claim token sent at registration; the token itself never travels on the bus. */
  promo_claim_hash: Type.Optional(Type.String()),
  /** false when the address belonged to a deleted account: one signup grant per address, ever. */
  signup_grant: Type.Optional(Type.Boolean()),
  /** The client address the registration came from, and the SPA's device cookie: what tells a referrer's own second account. */
  signup_address: Type.Optional(Type.String()),
  device_id: Type.Optional(Type.String()),
});
export const UserRoleChanged = Type.Object({ user_id: Type.String(), role: Role, actor_id: Type.Optional(Type.String()) });
export const UserStatusChanged = Type.Object({ user_id: Type.String(), status: UserStatus, actor_id: Type.Optional(Type.String()) });
export const UserRenamed = Type.Object({ user_id: Type.String(), name: Type.String() });
/**
 * A user deleted their account: every service erases or anonymises what it holds about them. The
 * address travels only as the SHA-256 (hex) of its normalised form (trimmed, lower-case), which is
 * enough to find rows kept by address (contact messages) without putting the address on the log.
 */
export const AccountDeleted = Type.Object({ user_id: Type.String(), email_sha256: Type.String(), deleted_at: Type.String() });

export const CreditsChanged = Type.Object({
  user_id: Type.String(),
  delta: Type.Integer(),
  balance: Type.Integer(),
  reason: Type.String(),
  ref: Type.Optional(Type.String()),
});
export const PurchaseCompleted = Type.Object({
  purchase_id: Type.String(),
  user_id: Type.String(),
  plan_id: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  credits: Type.Integer(),
  completed_at: Type.String(),
  /** Paid through the built-in test checkout (local mode without PayPal): no money moved. Absent: real money. */
  test: Type.Optional(Type.Boolean()),
  /** Hashes of who paid (the PayPal payer's account id and email; see payerKeys in the kit), when the provider said. */
  payer_keys: Type.Optional(Type.Array(Type.String({ minLength: 64, maxLength: 64 }), { maxItems: 4 })),
});
export const PurchaseRefunded = Type.Object({
  purchase_id: Type.String(),
  user_id: Type.String(),
  amount: Type.Number(),
  credits_reversed: Type.Integer(),
  refunded_at: Type.String(),
});

/** At most this many known business keys ride on one search request (the newest). */
export const MAX_KNOWN_BUSINESS_KEYS = 5000;

export const SearchRequested = Type.Object({
  search_id: Type.String(),
  user_id: Type.String(),
  industry: Type.String(),
  location: Type.String(),
  quantity: Type.Integer(),
  deadline_at: Type.String(),
  /**
   * Businesses the user already has from searches of this location (lead intake's keys, `place:...`
   * and `site:...`), when the search skips them: the engine neither crawls nor counts them.
   */
  known_business_keys: Type.Optional(Type.Array(Type.String({ maxLength: 600 }), { maxItems: MAX_KNOWN_BUSINESS_KEYS })),
  /**
   * The monitor whose run this search is. A run reuses what the engine knows of the area (sites a
   * recent crawl found without contacts are not crawled again); a search always looks afresh.
   */
  monitor_id: Type.Optional(Type.String()),
});
export const SearchCompleted = Type.Object({
  search_id: Type.String(),
  user_id: Type.String(),
  results_count: Type.Integer(),
  credits_used: Type.Integer(),
  /** What was searched for (absent from searches completed before the event carried them). */
  industry: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  status: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.String(),
});

export const SearchCancelled = Type.Object({ search_id: Type.String(), user_id: Type.String() });

/**
 * A monitor's run has ended: its search's books are closed (completed or failed), or it could not
 * start for want of credits (`insufficient_credits`, no search). Auth emails the user from it.
 */
export const MonitorRunCompleted = Type.Object({
  monitor_id: Type.String(),
  user_id: Type.String(),
  search_id: Type.Union([Type.String(), Type.Null()]),
  industry: Type.String(),
  location: Type.String(),
  status: Type.String(),
  new_leads: Type.Integer({ minimum: 0 }),
  credits_used: Type.Integer({ minimum: 0 }),
  notify_email: Type.Boolean(),
  timestamp: Type.String(),
});

/** Stats of the spec's LIVE panel that the engine knows (credits are the leads service's). */
export const EngineStats = Type.Object({
  total_found: Type.Integer(),
  with_email: Type.Integer(),
  with_phone: Type.Integer(),
  with_website: Type.Integer(),
  /** Places skipped unfetched as businesses the user already has (known_business_keys). */
  known_skipped: Type.Optional(Type.Integer()),
});

/** A lead as the engine sends it: the user-facing fields, a stable key, and every contact it found. */
export const EngineLead = Type.Object({
  /** Stable within a search (the place id): the leads service stores each key once. */
  key: Type.String(),
  ...Lead.properties,
  emails: Type.Optional(Type.Array(Type.String())),
  phones: Type.Optional(Type.Array(Type.String())),
  /** Where the business stands: with its name, one of the keys its owner is known by (businessKeysOf). */
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  /** The place keys of the other sources' listings merged into this lead (`osm:node/1`). */
  merged_keys: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 10 })),
});

export const ScrapeProgress = Type.Object({
  search_id: Type.String(),
  places_found: Type.Integer(),
  websites_checked: Type.Integer(),
  leads_found: Type.Integer(),
  coverage: Type.Optional(SearchCoverage),
});
export const ScrapeLeadsFound = Type.Object({ search_id: Type.String(), leads: Type.Array(EngineLead) });
export const FinishReason = Type.Union([
  Type.Literal('done'), Type.Literal('quota_exhausted'), Type.Literal('deadline'), Type.Literal('cancelled'), Type.Literal('source_failed'),
]);
export const ScrapeFinished = Type.Object({
  search_id: Type.String(),
  reason: FinishReason,
  stats: EngineStats,
  coverage: Type.Optional(SearchCoverage),
  error: Type.Optional(Type.String()),
  /** With source_failed: why, as a code, and the places the geocoder offered instead (did you mean; the places an ambiguous name names). */
  failure: Type.Optional(Type.Object({ code: SearchFailureCode, candidates: Type.Optional(Type.Array(Type.String())) })),
});

export const CommissionChanged = Type.Object({
  commission_id: Type.String(),
  referrer_id: Type.String(),
  referred_user_id: Type.String(),
  purchase_id: Type.String(),
  amount: Type.Number(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('payable'), Type.Literal('paid'), Type.Literal('reversed')]),
});

export const ContactSubmitted = Type.Object({
  submission_id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  message: Type.String(),
  submitted_at: Type.String(),
});

export const AdminActionRecorded = Type.Object({
  actor_id: Type.String(),
  action: Type.String(),
  target_id: Type.Optional(Type.String()),
  result: Type.String(),
  at: Type.String(),
});

/** Event type -> (topic, data schema). Producers and consumers validate against these. */
export const EVENT_TYPES = {
  'user.registered': { topic: TOPICS.authUser, schema: UserRegistered },
  'user.role_changed': { topic: TOPICS.authUser, schema: UserRoleChanged },
  'user.status_changed': { topic: TOPICS.authUser, schema: UserStatusChanged },
  'user.renamed': { topic: TOPICS.authUser, schema: UserRenamed },
  'account.deleted': { topic: TOPICS.authUser, schema: AccountDeleted },
  'credits.changed': { topic: TOPICS.billingCredits, schema: CreditsChanged },
  'purchase.completed': { topic: TOPICS.billingPurchase, schema: PurchaseCompleted },
  'purchase.refunded': { topic: TOPICS.billingPurchase, schema: PurchaseRefunded },
  'search.requested': { topic: TOPICS.leadsSearch, schema: SearchRequested },
  'search.completed': { topic: TOPICS.leadsSearch, schema: SearchCompleted },
  'search.cancelled': { topic: TOPICS.leadsSearch, schema: SearchCancelled },
  'monitor.run.completed': { topic: TOPICS.leadsSearch, schema: MonitorRunCompleted },
  'scrape.progress': { topic: TOPICS.scraperResult, schema: ScrapeProgress },
  'scrape.leads_found': { topic: TOPICS.scraperResult, schema: ScrapeLeadsFound },
  'scrape.finished': { topic: TOPICS.scraperResult, schema: ScrapeFinished },
  'commission.changed': { topic: TOPICS.affiliateCommission, schema: CommissionChanged },
  'contact.submitted': { topic: TOPICS.contactSubmission, schema: ContactSubmitted },
  'admin.action': { topic: TOPICS.adminAction, schema: AdminActionRecorded },
} as const satisfies Record<string, { topic: Topic; schema: TSchema }>;

export type EventType = keyof typeof EVENT_TYPES;
export type EventData<T extends EventType> = Static<(typeof EVENT_TYPES)[T]['schema']>;
