import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

/** The request header a machine authenticates with instead of a session token. */
export const API_KEY_HEADER = 'x-api-key';

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'lf_';

export const CreateApiKeyRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S', errorMessage: 'Please give the key a name (at most 80 characters)' }),
  expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, errorMessage: 'expires_in_days must be a whole number from 1 to 3650' })),
}, { additionalProperties: false });
export type CreateApiKeyRequest = Static<typeof CreateApiKeyRequest>;

/** A key as listed: never its secret, only the prefix that tells keys apart. */
export const ApiKeySummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()]),
  expires_at: Type.Union([Timestamp, Type.Null()]),
});
export type ApiKeySummary = Static<typeof ApiKeySummary>;

/** POST /api/api-keys: the only answer that ever carries the secret (`key`). */
export const CreatedApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  key: Type.String(),
  created_at: Timestamp,
  expires_at: Type.Union([Timestamp, Type.Null()]),
});
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const ApiKeyList = Type.Object({ keys: Type.Array(ApiKeySummary) });
export type ApiKeyList = Static<typeof ApiKeyList>;

export const ApiKeyId = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Internal: auth's answer to "whose key is this?" (POST /internal/api-keys/verify). */
export const VerifyApiKeyRequest = Type.Object({ key: Type.String({ maxLength: 200 }) }, { additionalProperties: false });
export const ApiKeyIdentity = Type.Object({
  key_id: Type.String(),
  user_id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
});
export type ApiKeyIdentity = Static<typeof ApiKeyIdentity>;

const errors = errorReplies(400, 401, 404, 409, 429);

/** A user's API keys, managed by session only: a key never manages keys. */
export const API_KEY_ROUTES = declareRoutes('auth', {
  create: { method: 'POST', path: '/api/api-keys', access: 'user', schema: { body: CreateApiKeyRequest, response: { 201: CreatedApiKey, ...errors } } },
  list: { method: 'GET', path: '/api/api-keys', access: 'user', schema: { response: { 200: ApiKeyList, ...errors } } },
  revoke: { method: 'DELETE', path: '/api/api-keys/:id', access: 'user', schema: { params: ApiKeyId, response: { 204: Type.Null(), ...errors } } },
});
