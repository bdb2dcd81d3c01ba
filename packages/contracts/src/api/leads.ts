import { Type, type Static } from 'typebox';
import { ActivityQuery, Timestamp } from './common.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';
import { SearchFailureCode } from './locations.ts';

export const MAX_LEADS_PER_REQUEST = 200;

/**
 * The verdict vocabulary: every export carries these words and the results table shows the same
 * ones (capitalised, `verdictWord`), so a user reads "unknown" in the table, the CSV, Excel and JSON alike.
 */
export const EmailDeliverability = Type.Union([
  Type.Literal('deliverable'), Type.Literal('undeliverable'), Type.Literal('accept_all'), Type.Literal('unknown'),
]);
export type EmailDeliverability = Static<typeof EmailDeliverability>;
export const EMAIL_DELIVERABILITIES: readonly EmailDeliverability[] = EmailDeliverability.anyOf.map((literal) => literal.const);
/** What kind of address an email is, apart from whether it works (a business's info@ is `role`, and may well be deliverable). */
export const EmailType = Type.Union([Type.Literal('role'), Type.Literal('personal'), Type.Literal('free_mail'), Type.Literal('disposable')]);
export type EmailType = Static<typeof EmailType>;

/** A verdict as people read it: the exported word, capitalised, underscores as spaces ("fixed_line" -> "Fixed line"). */
export const verdictWord = (code: string): string => {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A lead field an opt-out can blank. */
export const RemovedField = Type.Union([
  Type.Literal('name'), Type.Literal('email'), Type.Literal('phone'), Type.Literal('website'), Type.Literal('socials'),
]);
export type RemovedField = Static<typeof RemovedField>;
/** What an export cell and the results table say in place of a field an opt-out blanked. */
export const REMOVED_AT_OWNERS_REQUEST = "Removed at the owner's request";

/** A person's role in the business, normalised from the role the page writes. */
export const PersonRole = Type.Union([
  Type.Literal('owner'), Type.Literal('managing_director'), Type.Literal('partner'), Type.Literal('manager'), Type.Literal('other'),
]);
export type PersonRole = Static<typeof PersonRole>;

/** One of the people who run the business, as its pages name them. */
export const LeadPerson = Type.Object({
  name: Type.String(),
  role: PersonRole,
  /** The role as the page writes it ("Inhaberin", "Founder & CEO"), when it writes one. */
  role_text: Type.Optional(Type.String()),
  /** The page that names them. */
  source: Type.Optional(Type.String()),
});
export type LeadPerson = Static<typeof LeadPerson>;

export const Lead = Type.Object({
  /** The best decision-maker of `people` (owner first, then managing director, partner, manager), or empty. */
  name: Type.String(),
  company: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  website: Type.String(),
  city: Type.String(),
  address: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  socials: Type.Optional(Type.Array(Type.Object({ network: Type.String(), url: Type.String() }))),
  /** Everyone the business's pages name as running it, the decision-maker (`name`) first; absent when none. */
  people: Type.Optional(Type.Array(LeadPerson, { maxItems: 20 })),
  source: Type.Optional(Type.String()),
  place_id: Type.Optional(Type.String()),
  /**
   * The email's verdict, two labels apart: whether mail arrives (deliverable: its mail server took the
   * address; undeliverable: malformed, no mail host, or the mailbox refused; accept_all: the server takes
   * any address, so this one is unconfirmed; unknown: a check was off or got no answer), and what kind of
   * address it is (role, personal, free_mail, disposable).
   */
  email_deliverability: Type.Optional(EmailDeliverability),
  email_type: Type.Optional(EmailType),
  /** When the verdict was reached (ISO 8601), and its evidence: the mail host asked and the SMTP reply code that decided. */
  email_checked_at: Type.Optional(Type.String()),
  email_mx_host: Type.Optional(Type.String()),
  email_smtp_code: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  /** The page the email was found on (provenance) and when it was fetched (ISO 8601). */
  email_source: Type.Optional(Type.String()),
  email_fetched_at: Type.Optional(Type.String()),
  /** libphonenumber's type of the phone (mobile, fixed_line, toll_free... or unknown). */
  phone_type: Type.Optional(Type.String()),
  /** The phone for people, international format with spaces ("+49 3322 4288333"); `phone` stays E.164. */
  phone_display: Type.Optional(Type.String()),
  phone_source: Type.Optional(Type.String()),
  phone_fetched_at: Type.Optional(Type.String()),
  /** The user already had this business (within the ownership window): included free, on request. */
  owned: Type.Optional(Type.Boolean()),
  /**
   * Fields blanked because their owner opted out ("Removed at the owner's request"): the email or
   * phone asked for, or, for an opted-out website, every way to reach the business. Only fields that
   * had a value are listed.
   */
  removed: Type.Optional(Type.Array(RemovedField)),
});
export type Lead = Static<typeof Lead>;

/**
 * What a search covered: the area (Nominatim's boundary polygon, or its bounding box), each places
 * source's provider requests, places and error, the cells a capped provider was asked in and those
 * that saturated (answered its cap and were split), places dropped outside the boundary, listings
 * merged as one business, and whether the whole area was searched and nothing more exists there.
 */
export const SearchCoverage = Type.Object({
  area: Type.Object({
    name: Type.String(),
    boundary: Type.Union([Type.Literal('polygon'), Type.Literal('bbox')]),
    /** The geocoder's full name of the place searched ("Lindenfeld, Landkreis Bergstraße, Hessen, Germany"). */
    full_name: Type.Optional(Type.String()),
  }),
  sources: Type.Record(Type.String(), Type.Object({
    requests: Type.Integer(),
    places: Type.Integer(),
    error: Type.Optional(Type.String()),
  })),
  cells_searched: Type.Integer(),
  cells_saturated: Type.Integer(),
  provider_requests: Type.Integer(),
  places_found: Type.Integer(),
  places_outside_area: Type.Integer(),
  duplicates_merged: Type.Integer(),
  exhausted: Type.Boolean(),
});
export type SearchCoverage = Static<typeof SearchCoverage>;

export const LeadStats = Type.Object({
  total_found: Type.Integer(),
  with_email: Type.Integer(),
  with_phone: Type.Integer(),
  with_website: Type.Integer(),
  credits_used: Type.Integer(),
  remaining_credits: Type.Number(),
  /** Businesses the user already had that this search left out (not charged). */
  skipped_owned: Type.Integer(),
  /** What the search covered, once the engine has said (absent for searches from before coverage). */
  coverage: Type.Optional(SearchCoverage),
});
export type LeadStats = Static<typeof LeadStats>;

export const FILL_BOTH_FIELDS = 'Please fill in both industry and location fields';
export const QUANTITY_RULE = `Quantity must be a whole number from 1 to ${MAX_LEADS_PER_REQUEST}`;

/** Text a person typed: at least one non-space character, capped so a pasted essay is a 400, not a search. */
export const SearchText = (label: string, maxLength: number) => Type.String({
  minLength: 1,
  maxLength,
  pattern: '\\S',
  errorMessage: { type: FILL_BOTH_FIELDS, minLength: FILL_BOTH_FIELDS, pattern: FILL_BOTH_FIELDS, maxLength: `${label} must be at most ${maxLength} characters` },
});

export const GenerateLeadsRequest = Type.Object({
  industry: SearchText('Industry', 100),
  location: SearchText('Location', 200),
  quantity: Type.Integer({
    minimum: 1,
    maximum: MAX_LEADS_PER_REQUEST,
    default: 10,
    errorMessage: { type: QUANTITY_RULE, minimum: QUANTITY_RULE, maximum: QUANTITY_RULE },
  }),
  /** Also deliver businesses the user already has (marked `owned`, free) instead of skipping them. */
  include_owned: Type.Optional(Type.Boolean({ default: false, errorMessage: 'include_owned must be true or false' })),
}, { additionalProperties: false, errorMessage: { required: FILL_BOTH_FIELDS } });
export type GenerateLeadsRequest = Static<typeof GenerateLeadsRequest>;

export const GenerateLeadsResponse = Type.Object({ leads: Type.Array(Lead), stats: LeadStats });

/** A search that failed (nothing charged): the words, the stable code, and places to search instead. */
export const SearchFailedBody = Type.Object({
  detail: Type.String(),
  code: Type.String(),
  error_candidates: Type.Optional(Type.Array(Type.String())),
});
export type GenerateLeadsResponse = Static<typeof GenerateLeadsResponse>;

export const SearchStatus = Type.Union([
  Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled'),
]);
export type SearchStatus = Static<typeof SearchStatus>;

/**
 * Why a search ended: the engine's reasons (done, quota_exhausted, deadline, cancelled,
 * source_failed) or the leads service's own (deadline when the engine went quiet, cancelled by the
 * user, billing_unavailable when credits could not be held).
 */
export const SearchReason = Type.Union([Type.String(), Type.Null()]);

export const LeadSearchSummary = Type.Object({
  id: Type.String(),
  industry: Type.String(),
  location: Type.String(),
  quantity: Type.Integer(),
  status: SearchStatus,
  reason: SearchReason,
  /** What went wrong, in words a user can act on (failed searches only). */
  error: Type.Union([Type.String(), Type.Null()]),
  /** Why it failed, for a program (failed searches only; null for one failed before codes, or otherwise). */
  error_code: Type.Optional(Type.Union([SearchFailureCode, Type.Null()])),
  /** Places to search instead: the geocoder's "did you mean" (location_not_found) or the places the location names (location_ambiguous). */
  error_candidates: Type.Optional(Type.Array(Type.String())),
  leads_count: Type.Integer(),
  credits_used: Type.Integer(),
  created_at: Timestamp,
  finished_at: Type.Union([Timestamp, Type.Null()]),
  /** The monitor this search is a run of (docs/monitors.md); null for a search the user started. */
  monitor_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type LeadSearchSummary = Static<typeof LeadSearchSummary>;

/** How far the engine has got: businesses found, websites checked, leads so far. */
export const SearchProgress = Type.Object({
  places_found: Type.Integer(),
  websites_checked: Type.Integer(),
  leads_found: Type.Integer(),
  /** Businesses the user already had that the search left out so far. */
  skipped_owned: Type.Optional(Type.Integer()),
  /** What the search has covered so far. */
  coverage: Type.Optional(SearchCoverage),
});
export type SearchProgress = Static<typeof SearchProgress>;

/** GET /api/lead-searches/:id — the search, its stats and every lead it delivered, in order. */
export const LeadSearchDetail = Type.Object({
  ...LeadSearchSummary.properties,
  stats: LeadStats,
  progress: SearchProgress,
  /** What the search covered; null until the engine has said (or for searches from before coverage). */
  coverage: Type.Union([SearchCoverage, Type.Null()]),
  leads: Type.Array(Lead),
});
export type LeadSearchDetail = Static<typeof LeadSearchDetail>;

const DAY_RULE = 'must be a date written YYYY-MM-DD';
const STATUS_FILTER_RULE = 'status must be running, completed, failed or cancelled';
const Day = (name: string) => Type.String({ format: 'date', maxLength: 10, errorMessage: `${name} ${DAY_RULE}` });

/** The history's filters: words in the industry or location, the day range (UTC, inclusive), the status. */
export const LeadSearchHistoryQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, errorMessage: 'page must be a whole number from 1' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, errorMessage: 'page_size must be a whole number from 1 to 100' })),
  q: Type.Optional(Type.String({ maxLength: 200, errorMessage: 'q must be at most 200 characters' })),
  status: Type.Optional(Type.Union([
    Type.Literal('running', { errorMessage: STATUS_FILTER_RULE }), Type.Literal('completed', { errorMessage: STATUS_FILTER_RULE }),
    Type.Literal('failed', { errorMessage: STATUS_FILTER_RULE }), Type.Literal('cancelled', { errorMessage: STATUS_FILTER_RULE }),
  ])),
  from: Type.Optional(Day('from')),
  to: Type.Optional(Day('to')),
}, { additionalProperties: false });
export type LeadSearchHistoryQuery = Static<typeof LeadSearchHistoryQuery>;

/** GET /api/lead-searches — the user's searches, newest first. */
export const LeadSearchPage = Type.Object({
  searches: Type.Array(LeadSearchSummary),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
export type LeadSearchPage = Static<typeof LeadSearchPage>;

export const LeadSearchId = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * The live feed of one search (GET /api/lead-searches/:id/events, Server-Sent Events). Every event
 * carries `id:` = a per-search sequence number; reconnecting with Last-Event-ID (or
 * `?last_event_id=`) replays what came after it. The stream ends after `finished`.
 */
export const SEARCH_FEED_EVENTS = ['progress', 'leads', 'finished'] as const;
export type SearchFeedEventType = (typeof SEARCH_FEED_EVENTS)[number];

export const SearchLeadsFeedData = Type.Object({
  leads: Type.Array(Lead),
  /** Leads delivered so far, these included. */
  leads_count: Type.Integer(),
  stats: LeadStats,
});
export type SearchLeadsFeedData = Static<typeof SearchLeadsFeedData>;

export const SearchFinishedFeedData = Type.Object({
  status: SearchStatus,
  reason: SearchReason,
  error: Type.Union([Type.String(), Type.Null()]),
  error_code: Type.Optional(Type.Union([SearchFailureCode, Type.Null()])),
  error_candidates: Type.Optional(Type.Array(Type.String())),
  stats: LeadStats,
});
export type SearchFinishedFeedData = Static<typeof SearchFinishedFeedData>;

export interface SearchFeedData {
  progress: SearchProgress;
  leads: SearchLeadsFeedData;
  finished: SearchFinishedFeedData;
}

/** The feed resumes after this event (a browser's EventSource sends `Last-Event-ID` instead). */
export const SearchFeedQuery = Type.Object({
  last_event_id: Type.Optional(Type.Integer({ minimum: 0, errorMessage: 'last_event_id must be a whole number' })),
}, { additionalProperties: false });

/** The user already has this many searches running (429). */
export const tooManyRunningSearchesDetail = (limit: number) =>
  `You already have ${limit} ${limit === 1 ? 'search' : 'searches'} running. Wait for one to finish or cancel it, then try again.`;

/**
 * The verdict and provenance columns every export adds after its own, one list for CSV, JSON and
 * Excel. `Phone` stays E.164 in exports; `phone_display` is for people and is not exported.
 */
export const LEAD_VERDICT_COLUMNS = [
  { header: 'Email deliverability', key: 'email_deliverability' },
  { header: 'Email type', key: 'email_type' },
  { header: 'Email checked at', key: 'email_checked_at' },
  { header: 'Email MX host', key: 'email_mx_host' },
  { header: 'Email SMTP code', key: 'email_smtp_code' },
  { header: 'Email source', key: 'email_source' },
  { header: 'Email fetched at', key: 'email_fetched_at' },
  { header: 'Phone type', key: 'phone_type' },
  { header: 'Phone source', key: 'phone_source' },
  { header: 'Phone fetched at', key: 'phone_fetched_at' },
] as const;

const fileNamePart = (text: string) => text
  .normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
  .toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  .slice(0, 40).replace(/-+$/, '') || 'any';

export type LeadsExportFormat = 'csv' | 'json' | 'xlsx';

/** Which of a search's leads a file holds: all, those the filter on screen shows, or the selected rows. */
export type ExportedPart = { kind: 'all' } | { kind: 'filtered'; shown: number; total: number } | { kind: 'selected'; count: number };

const partName = (part: ExportedPart): string =>
  part.kind === 'filtered' ? `-filtered-${part.shown}-of-${part.total}` : part.kind === 'selected' ? `-selected-${part.count}` : '';

/**
 * `leadforge-{industry}-{location}-{YYYY-MM-DD}[-filtered-3-of-50|-selected-2].{csv|json|xlsx}`,
 * safe as a file name on every system; a part of the search says so, so it is never taken for all of it.
 */
export function leadsExportFileName(industry: string, location: string, day: Date | string, format: LeadsExportFormat = 'csv', part: ExportedPart = { kind: 'all' }): string {
  const date = new Date(day).toISOString().slice(0, 10);
  return `leadforge-${fileNamePart(industry)}-${fileNamePart(location)}-${date}${partName(part)}.${format}`;
}

/** The window the public figures are measured over. */
export const PUBLIC_STATS_DAYS = 30;

/**
 * GET /api/lead-stats (public): what the product's own searches of the last PUBLIC_STATS_DAYS days
 * measured, the figures the home page may claim. A figure without searches to measure it is null.
 */
export const PublicLeadStats = Type.Object({
  period_days: Type.Integer(),
  /** Searches that completed with at least one lead. */
  searches_completed: Type.Integer(),
  leads_delivered: Type.Integer(),
  /** The median time from starting such a search to its results, in whole seconds. */
  median_seconds_to_results: Type.Union([Type.Integer(), Type.Null()]),
  /** Delivered emails the mail check gave a verdict on (deliverable, undeliverable or accept_all; not unknown). */
  emails_checked: Type.Integer(),
  /** Of those, the percent judged deliverable, one decimal. */
  emails_deliverable_percent: Type.Union([Type.Number(), Type.Null()]),
  generated_at: Type.String(),
});
export type PublicLeadStats = Static<typeof PublicLeadStats>;

const searchErrors = errorReplies(400, 401, 402, 404, 409, 429, 503);

/** One UTC day of the signed-in user's searches, by the day each search started. */
export const LeadActivityDay = Type.Object({
  date: Type.String(),
  searches: Type.Integer(),
  leads: Type.Integer(),
  with_email: Type.Integer(),
  with_phone: Type.Integer(),
  /** Delivered leads whose email the mail check found deliverable (`email_deliverability: deliverable`). */
  verified_email: Type.Integer(),
});
export type LeadActivityDay = Static<typeof LeadActivityDay>;

/** The last `days` UTC days, oldest first, days without searches included as zeros. */
export const LeadActivityResponse = Type.Object({ days: Type.Array(LeadActivityDay) });
export type LeadActivityResponse = Static<typeof LeadActivityResponse>;

/** Lead searches: run one and wait, start one, the history, one search, cancel, the live feed; the public figures. */
export const LEAD_SEARCH_ROUTES = declareRoutes('leads', {
  generate: {
    method: 'POST', path: '/api/generate-leads', access: 'user', streaming: true, apiKey: true,
    schema: { body: GenerateLeadsRequest, response: { 200: GenerateLeadsResponse, ...errorReplies(400, 401, 402, 429), 422: SearchFailedBody, 502: SearchFailedBody, 503: SearchFailedBody } },
  },
  start: { method: 'POST', path: '/api/lead-searches', access: 'user', apiKey: true, schema: { body: GenerateLeadsRequest, response: { 201: LeadSearchSummary, ...searchErrors } } },
  history: { method: 'GET', path: '/api/lead-searches', access: 'user', apiKey: true, schema: { querystring: LeadSearchHistoryQuery, response: { 200: LeadSearchPage, ...searchErrors } } },
  get: { method: 'GET', path: '/api/lead-searches/:id', access: 'user', apiKey: true, schema: { params: LeadSearchId, response: { 200: LeadSearchDetail, ...searchErrors } } },
  cancel: { method: 'DELETE', path: '/api/lead-searches/:id', access: 'user', apiKey: true, schema: { params: LeadSearchId, response: { 200: LeadSearchSummary, ...searchErrors } } },
  /** Server-Sent Events, written as they come: no reply schema. */
  feed: { method: 'GET', path: '/api/lead-searches/:id/events', access: 'user', streaming: true, apiKey: true, schema: { params: LeadSearchId, querystring: SearchFeedQuery } },
  publicStats: { method: 'GET', path: '/api/lead-stats', access: 'public', schema: { response: { 200: PublicLeadStats } } },
  activity: { method: 'GET', path: '/api/lead-activity', access: 'user', schema: { querystring: ActivityQuery, response: { 200: LeadActivityResponse, ...errorReplies(400, 401, 503) } } },
});
