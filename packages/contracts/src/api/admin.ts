import { Type, type Static } from 'typebox';
import { Role, UserStatus } from './common.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

const CreditsChange = Type.Integer({
  minimum: -1_000_000,
  maximum: 1_000_000,
  not: { const: 0 },
  errorMessage: {
    type: 'credits_change must be a whole number',
    not: 'Please enter a credit amount other than zero',
    minimum: 'credits_change must be between -1000000 and 1000000',
    maximum: 'credits_change must be between -1000000 and 1000000',
  },
});

const TargetUserId = Type.String({ minLength: 1, maxLength: 64, errorMessage: { minLength: 'Please select a user and enter credit amount' } });

export const UpdateCreditsRequest = Type.Object({
  user_id: TargetUserId,
  credits_change: CreditsChange,
}, { additionalProperties: false, errorMessage: { required: 'Please select a user and enter credit amount' } });
export type UpdateCreditsRequest = Static<typeof UpdateCreditsRequest>;

export const USER_ACTIONS = ['promote', 'demote', 'deactivate', 'activate', 'credits'] as const;
export type UserActionName = (typeof USER_ACTIONS)[number];

/**
 * The spec reports credit changes both as update-credits and as a user-action with a signed amount,
 * so `action` is either a named action or a signed credit amount; `credits` takes the amount from
 * `credits_change`.
 */
export const UserActionRequest = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 64 }),
  action: Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
    description: 'promote, demote, deactivate, activate, credits, or a signed credit amount such as -10 or "+10"',
  }),
  credits_change: Type.Optional(CreditsChange),
}, { additionalProperties: false });
export type UserActionRequest = Static<typeof UserActionRequest>;

/** Every admin action answers with a sentence for the success banner. */
export const AdminActionResponse = Type.Object({
  message: Type.String(),
  user: Type.Optional(Type.Object({
    id: Type.String(),
    role: Type.Optional(Role),
    status: Type.Optional(UserStatus),
    credits: Type.Optional(Type.Integer()),
  })),
});
export type AdminActionResponse = Static<typeof AdminActionResponse>;

export const ROLE_FILTERS = ['all', 'user', 'admin'] as const;
export const STATS_SECTIONS = ['stats', 'users', 'contact_submissions'] as const;

export const EnhancedStatsQuery = Type.Object({
  /** Comma-separated subset of STATS_SECTIONS; all when absent (the user table asks for `users` only). */
  include: Type.Optional(Type.String({ maxLength: 100, pattern: '^(stats|users|contact_submissions)(,(stats|users|contact_submissions))*$', errorMessage: 'include must list stats, users or contact_submissions, separated by commas' })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  role: Type.Optional(Type.String({ pattern: `^(${ROLE_FILTERS.join('|')})$`, errorMessage: 'role must be all, user or admin' })),
  users_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  users_page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  contacts_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  contacts_page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
}, { additionalProperties: false });
export type EnhancedStatsQuery = Static<typeof EnhancedStatsQuery>;

export const AdminUser = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: Role,
  status: UserStatus,
  credits: Type.Integer(),
  created_at: Type.String(),
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminPurchase = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  user_name: Type.Union([Type.String(), Type.Null()]),
  plan_id: Type.String(),
  amount: Type.Number(),
  credits: Type.Integer(),
  completed_at: Type.String(),
  refunded_amount: Type.Number(),
  /** Paid through the built-in test checkout: no money moved, never counted as revenue. */
  test: Type.Boolean(),
});
export type AdminPurchase = Static<typeof AdminPurchase>;

export const ContactSubmission = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  message: Type.String(),
  submitted_at: Type.String(),
});
export type ContactSubmission = Static<typeof ContactSubmission>;

/** One UTC day of the overview charts. */
export const DailyFigures = Type.Object({
  date: Type.String(),
  signups: Type.Integer(),
  revenue: Type.Number(),
  leads: Type.Integer(),
  /** Searches that ended that day. */
  searches: Type.Integer(),
  credits_used: Type.Integer(),
});
export type DailyFigures = Static<typeof DailyFigures>;

export const PageInfo = Type.Object({ page: Type.Integer(), page_size: Type.Integer(), total: Type.Integer() });
export type PageInfo = Static<typeof PageInfo>;

export const AdminStats = Type.Object({
  users: Type.Object({ total: Type.Integer(), admins: Type.Integer(), inactive: Type.Integer() }),
  /** Revenue net of refunds; `purchases` counts completed purchases. Test-checkout purchases are not in it. */
  revenue: Type.Object({ total: Type.Number(), purchases: Type.Integer(), refunded: Type.Number() }),
  /** Purchases through the built-in test checkout (no money moved), net of their refunds: test money, shown apart. */
  test_checkout: Type.Object({ total: Type.Number(), purchases: Type.Integer() }),
  usage: Type.Object({ total_leads_generated: Type.Integer(), total_scrapes: Type.Integer() }),
  credits: Type.Object({ total_in_system: Type.Integer() }),
  recent_users: Type.Array(AdminUser),
  recent_purchases: Type.Array(AdminPurchase),
  /** The last 30 UTC days, oldest first, days without activity included. */
  daily: Type.Array(DailyFigures),
});
export type AdminStats = Static<typeof AdminStats>;

/**
 * The spec's admin stats carry `users {total, admins}` and also "the arrays users and
 * contact_submissions": the figures sit under `stats`, the (paginated) arrays beside them.
 */
export const EnhancedStatsResponse = Type.Object({
  stats: Type.Optional(AdminStats),
  users: Type.Optional(Type.Array(AdminUser)),
  users_page: Type.Optional(PageInfo),
  contact_submissions: Type.Optional(Type.Array(ContactSubmission)),
  contact_submissions_page: Type.Optional(PageInfo),
  generated_at: Type.String(),
});
export type EnhancedStatsResponse = Static<typeof EnhancedStatsResponse>;

export const ACTIVITY_TYPES = ['scrape', 'payment', 'refund', 'admin_action'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ActivityLogsQuery = Type.Object({
  /** Absent: user activity (scrapes, payments, refunds); `admin_action`: the admin audit log. */
  type: Type.Optional(Type.String({ pattern: `^(${ACTIVITY_TYPES.join('|')})$`, errorMessage: 'type must be scrape, payment, refund or admin_action' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  /** `next_cursor` of the previous page. */
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
}, { additionalProperties: false });
export type ActivityLogsQuery = Static<typeof ActivityLogsQuery>;

/** The spec's activity entry: details {results_count, credits_used} for scrapes, {amount, credits} for payments. */
export const ActivityEntry = Type.Object({
  id: Type.String(),
  type: Type.String(),
  user_id: Type.String(),
  /** Who `user_id` is, when the read model knows (ids that share their first 8 characters stay tellable apart). */
  user_name: Type.Union([Type.String(), Type.Null()]),
  user_email: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.String(),
  details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()])),
});
export type ActivityEntry = Static<typeof ActivityEntry>;

export const ActivityLogsResponse = Type.Object({
  logs: Type.Array(ActivityEntry),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  total: Type.Integer(),
});
export type ActivityLogsResponse = Static<typeof ActivityLogsResponse>;

export const AdminUserParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type AdminUserParams = Static<typeof AdminUserParams>;

/** A finished search of the user, as `search.completed` reported it (industry and location null from before it carried them). */
export const AdminUserSearch = Type.Object({
  search_id: Type.Union([Type.String(), Type.Null()]),
  industry: Type.Union([Type.String(), Type.Null()]),
  location: Type.Union([Type.String(), Type.Null()]),
  results_count: Type.Integer(),
  credits_used: Type.Integer(),
  completed_at: Type.String(),
});

/** A purchase of the user; `refunded_amount` > 0 once refunded (in part or whole). */
export const AdminUserPurchase = Type.Object({
  id: Type.String(),
  plan_id: Type.String(),
  amount: Type.Number(),
  credits: Type.Integer(),
  completed_at: Type.String(),
  refunded_amount: Type.Number(),
  refunded_at: Type.Union([Type.String(), Type.Null()]),
  /** Paid through the built-in test checkout: no money moved. */
  test: Type.Boolean(),
});

/** One line of billing's credit ledger: every change of the balance, with why. */
export const AdminLedgerEntry = Type.Object({
  id: Type.Union([Type.String(), Type.Integer()]),
  delta: Type.Integer(),
  balance_after: Type.Integer(),
  reason: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});

export const AdminUserApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Union([Type.String(), Type.Null()]),
});

/**
 * GET /api/admin/users/:id: one user as the Users tab opens them. Searches, purchases and refunds
 * come from admin's read models; the ledger from billing and the API keys from auth, which own them.
 * A section whose owner does not answer is null, and `unavailable` says which and why: the rest still shows.
 */
export const AdminUserDetailResponse = Type.Object({
  user: AdminUser,
  /** Newest first, at most 100. */
  searches: Type.Array(AdminUserSearch),
  /** Newest first, at most 100; refunded ones included. */
  purchases: Type.Array(AdminUserPurchase),
  /** Newest first, at most 100. */
  ledger: Type.Union([Type.Array(AdminLedgerEntry), Type.Null()]),
  /** The keys that still work. */
  api_keys: Type.Union([Type.Array(AdminUserApiKey), Type.Null()]),
  unavailable: Type.Array(Type.String()),
});
export type AdminUserDetailResponse = Static<typeof AdminUserDetailResponse>;

/** A client may name its attempt so a retried or double-clicked credit change applies once. */
export const AdminActionHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._:-]+$', errorMessage: 'Idempotency-Key must be 1-100 letters, digits or ._:-' })),
});

const errors = errorReplies(400, 401, 403, 503);
const actionReplies = { 200: AdminActionResponse, ...errorReplies(400, 401, 403, 404, 409, 502, 503) };

/** The admin panel: the read models' figures, the activity feed, one user, and the actions on users. */
export const ADMIN_ROUTES = declareRoutes('admin', {
  stats: { method: 'GET', path: '/api/admin/enhanced-stats', access: 'admin', schema: { querystring: EnhancedStatsQuery, response: { 200: EnhancedStatsResponse, ...errors } } },
  activity: { method: 'GET', path: '/api/admin/activity-logs', access: 'admin', schema: { querystring: ActivityLogsQuery, response: { 200: ActivityLogsResponse, ...errors } } },
  user: { method: 'GET', path: '/api/admin/users/:id', access: 'admin', schema: { params: AdminUserParams, response: { 200: AdminUserDetailResponse, ...errorReplies(404), ...errors } } },
  updateCredits: { method: 'POST', path: '/api/admin/update-credits', access: 'admin', schema: { body: UpdateCreditsRequest, headers: AdminActionHeaders, response: actionReplies } },
  userAction: { method: 'POST', path: '/api/admin/user-action', access: 'admin', schema: { body: UserActionRequest, headers: AdminActionHeaders, response: actionReplies } },
});
