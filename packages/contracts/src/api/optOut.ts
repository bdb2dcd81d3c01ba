import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

export const OPT_OUT_NOTHING_GIVEN = 'Please give an email address, a phone number or a website';
export const OPT_OUT_BAD_PHONE = 'Please give the phone number in international format, starting with + and the country code';
export const OPT_OUT_BAD_WEBSITE = 'Please give a website address such as example.com';

/**
 * POST /api/opt-out (public): a person asks to be left out of the leads. An email address is
 * suppressed once its owner opens the link mailed to it; a phone number or a website waits for an
 * administrator. Nothing is suppressed on the request alone: anyone may send it about anyone.
 */
export const OptOutRequest = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254, format: 'email', errorMessage: { format: 'Please enter a valid email address', maxLength: 'Email is too long' } })),
  phone: Type.Optional(Type.String({ maxLength: 40, errorMessage: { maxLength: 'Phone number is too long' } })),
  website: Type.Optional(Type.String({ maxLength: 2048, errorMessage: { maxLength: 'Website address is too long' } })),
  reason: Type.Optional(Type.String({ maxLength: 2000, errorMessage: { maxLength: 'Reason is too long (at most 2,000 characters)' } })),
}, { additionalProperties: false });
export type OptOutRequest = Static<typeof OptOutRequest>;

/**
 * `unconfirmed`: an email whose owner has not opened the mailed link (nothing suppressed);
 * `applied`: the email is suppressed (confirmed); `pending`: a phone or website waits for an
 * administrator (nothing suppressed yet); `approved`: the phone or website is suppressed (a website's
 * host, or the registrable domain an administrator widened it to); `rejected`: it is not;
 * `lifted`: nothing of it is suppressed any more.
 */
export const OptOutStatus = Type.Union([
  Type.Literal('unconfirmed'), Type.Literal('applied'), Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('lifted'),
]);
export type OptOutStatus = Static<typeof OptOutStatus>;

/**
 * How far an opted-out website reaches: `host`, the host asked for and its subdomains (never its
 * parent); `domain`, the whole registrable domain, only by an administrator's explicit choice.
 */
export const OptOutScope = Type.Union([Type.Literal('host'), Type.Literal('domain')], { errorMessage: "scope must be 'host' or 'domain'" });
export type OptOutScope = Static<typeof OptOutScope>;

/**
 * The one answer to every accepted request, whoever's contact it names: it never tells whether the
 * contact is in anyone's leads, or already opted out.
 */
export const OPT_OUT_RECEIVED = 'Thank you. If you gave an email address, we have sent it a link to confirm: nothing is removed until it is opened (it works for 48 hours). A phone number or website is removed once our team has checked the request.';
export const OptOutResponse = Type.Object({ message: Type.String() });
export type OptOutResponse = Static<typeof OptOutResponse>;

/** POST /api/opt-out/confirm: the token of the link mailed to the address. */
export const OptOutConfirmation = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export type OptOutConfirmation = Static<typeof OptOutConfirmation>;
export const OPT_OUT_CONFIRMED = 'Your opt-out is confirmed: your email address is removed from every search, past and future.';

export const OptOutEntry = Type.Object({
  id: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  /** E.164 (`+4933224288333`). */
  phone: Type.Union([Type.String(), Type.Null()]),
  /** The website as given. */
  website: Type.Union([Type.String(), Type.Null()]),
  /**
   * What the website suppresses once approved, with every subdomain: the host asked for (without
   * `www.`; scope `host`), or its registrable domain when an administrator widened it (scope `domain`).
   */
  domain: Type.Union([Type.String(), Type.Null()]),
  /** `host` unless an administrator approved it for the whole registrable domain; null without a website. */
  scope: Type.Union([OptOutScope, Type.Null()]),
  /** The registrable domain an administrator could widen this request to, when that is more than the host. */
  widens_to: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  status: OptOutStatus,
  created_at: Timestamp,
  decided_at: Type.Union([Timestamp, Type.Null()]),
});
export type OptOutEntry = Static<typeof OptOutEntry>;

/** One suppressed value: never in new searches, blanked in past ones. */
export const SuppressedValue = Type.Object({
  /** `host`: that host and its subdomains; `domain`: a whole registrable domain (an administrator's widening). */
  kind: Type.Union([Type.Literal('email'), Type.Literal('phone'), Type.Literal('host'), Type.Literal('domain')]),
  value: Type.String(),
  opt_out_id: Type.String(),
});
export type SuppressedValue = Static<typeof SuppressedValue>;

export const AdminOptOutQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, errorMessage: 'q must be at most 200 characters' })),
  status: Type.Optional(OptOutStatus),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, errorMessage: 'page must be a whole number from 1' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, errorMessage: 'page_size must be a whole number from 1 to 100' })),
}, { additionalProperties: false });
export type AdminOptOutQuery = Static<typeof AdminOptOutQuery>;

/** GET /api/admin/opt-outs — the requests (newest first) and the suppression list, both filtered by `q`. */
export const AdminOptOutList = Type.Object({
  requests: Type.Array(OptOutEntry),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  suppressed: Type.Array(SuppressedValue),
});
export type AdminOptOutList = Static<typeof AdminOptOutList>;

export const OptOutId = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** POST /api/admin/opt-outs/{id}/approve — optional body: `scope: 'domain'` widens the website to its registrable domain. */
export const OptOutApproval = Type.Object({
  scope: Type.Optional(OptOutScope),
}, { additionalProperties: false });
export type OptOutApproval = Static<typeof OptOutApproval>;

export const OptOutPreviewQuery = Type.Object({
  scope: Type.Optional(OptOutScope),
}, { additionalProperties: false });
export type OptOutPreviewQuery = Static<typeof OptOutPreviewQuery>;

/**
 * GET /api/admin/opt-outs/{id}/preview — what approving the website (at `scope`) would blank in
 * searches already made: leads on that host or its subdomains (website or email), in how many
 * searches of how many users.
 */
export const OptOutPreview = Type.Object({
  scope: OptOutScope,
  /** The host or registrable domain the approval would suppress, with its subdomains. */
  value: Type.String(),
  leads: Type.Integer(),
  searches: Type.Integer(),
  users: Type.Integer(),
});
export type OptOutPreview = Static<typeof OptOutPreview>;

const adminErrors = errorReplies(400, 401, 403, 404, 409);

/** Opt-outs: anyone may ask; administrators list them, preview and decide websites, lift a suppression. */
export const OPT_OUT_ROUTES = declareRoutes('leads', {
  request: { method: 'POST', path: '/api/opt-out', access: 'public', schema: { body: OptOutRequest, response: { 202: OptOutResponse, ...errorReplies(400, 413, 429) } } },
  confirm: { method: 'POST', path: '/api/opt-out/confirm', access: 'public', schema: { body: OptOutConfirmation, response: { 200: OptOutResponse, ...errorReplies(400, 429) } } },
  list: { method: 'GET', path: '/api/admin/opt-outs', access: 'admin', schema: { querystring: AdminOptOutQuery, response: { 200: AdminOptOutList, ...adminErrors } } },
  preview: {
    method: 'GET', path: '/api/admin/opt-outs/:id/preview', access: 'admin',
    schema: { params: OptOutId, querystring: OptOutPreviewQuery, response: { 200: OptOutPreview, ...adminErrors } },
  },
  approve: { method: 'POST', path: '/api/admin/opt-outs/:id/approve', access: 'admin', schema: { params: OptOutId, body: OptOutApproval, response: { 200: OptOutEntry, ...adminErrors } } },
  reject: { method: 'POST', path: '/api/admin/opt-outs/:id/reject', access: 'admin', schema: { params: OptOutId, response: { 200: OptOutEntry, ...adminErrors } } },
  lift: { method: 'DELETE', path: '/api/admin/opt-outs/:id', access: 'admin', schema: { params: OptOutId, response: { 200: OptOutEntry, ...adminErrors } } },
});
