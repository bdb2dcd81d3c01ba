import { Type, type Static } from 'typebox';

/**
 * `POST /internal/account-data/export` on billing, leads, affiliate and contact (service token, never
 * routed by the gateway): what the service holds about one user, for `GET /api/account/export`.
 * The address is in the body, never in a URL that access logs keep; contact finds messages by it.
 */
export const AccountDataRequest = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 64 }),
  email: Type.String({ minLength: 1, maxLength: 320 }),
}, { additionalProperties: false });
export type AccountDataRequest = Static<typeof AccountDataRequest>;

/** Each service answers one JSON object of its own shape; auth files it under the service's name. */
export const AccountDataResponse = Type.Record(Type.String(), Type.Unknown());
export type AccountDataResponse = Static<typeof AccountDataResponse>;

export const ACCOUNT_DATA_EXPORT_PATH = '/internal/account-data/export';

/** The SHA-256 (hex) of an address as `account.deleted` carries it: trimmed and lower-cased first. */
export const EMAIL_SHA256_SQL = "encode(sha256(convert_to(lower(trim(email)), 'UTF8')), 'hex')";
