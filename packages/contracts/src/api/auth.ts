import { Type, type Static } from 'typebox';
import { Role, Timestamp, UserStatus } from './common.ts';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

export const PASSWORD_MIN_LENGTH = 6;

/** The password rule of registration, reset and change alike. */
export const NewPassword = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: 200,
  errorMessage: { minLength: 'Password must be at least 6 characters long', maxLength: 'Password must be at most 200 characters long' },
});

export const User = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: Role,
  credits: Type.Number(),
  status: UserStatus,
  created_at: Timestamp,
  /** Whether a search that ran more than a minute emails "your leads are ready" (settings). */
  notify_search_ready: Type.Optional(Type.Boolean()),
});
export type User = Static<typeof User>;

export const RegisterRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  email: Type.String({ format: 'email', minLength: 3, maxLength: 254, errorMessage: { format: 'Please enter a valid email address' } }),
  password: NewPassword,
  referral_code: Type.Optional(Type.String({ maxLength: 64 })),
  promo_code: Type.Optional(Type.String({ maxLength: 32 })),
  order_id: Type.Optional(Type.String({ maxLength: 64 })),
  /** The secret the promo page kept in the buyer's browser when the order was created. */
  promo_claim_token: Type.Optional(Type.String({ maxLength: 128 })),
  /** The SPA's long-lived random device cookie (lf_device): a referral from the same device is the referrer's own. */
  device_id: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]{8,64}$', errorMessage: { pattern: 'device_id must be 8 to 64 letters, digits, - or _' } })),
}, { additionalProperties: false });
export type RegisterRequest = Static<typeof RegisterRequest>;

export const LoginRequest = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });
export type LoginRequest = Static<typeof LoginRequest>;

export const SessionResponse = Type.Object({
  user: User,
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
});
export type SessionResponse = Static<typeof SessionResponse>;

export const PasswordResetRequest = Type.Object({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 254, errorMessage: { format: 'Please enter a valid email address' } }),
}, { additionalProperties: false });
export type PasswordResetRequest = Static<typeof PasswordResetRequest>;

/** POST /api/auth/verify-email: the token of the link mailed at registration. */
export const EmailVerification = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });
export type EmailVerification = Static<typeof EmailVerification>;

export const PasswordResetConfirm = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
  password: NewPassword,
}, { additionalProperties: false });
export type PasswordResetConfirm = Static<typeof PasswordResetConfirm>;

export const ChangePasswordRequest = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: 200, errorMessage: { minLength: 'Please enter your current password' } }),
  new_password: NewPassword,
  /** Leave the user's API keys working; without it a change revokes them (a reset always does). */
  keep_api_keys: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>;

/** How many live API keys a password change or reset revoked. */
const ApiKeysRevoked = Type.Integer({ minimum: 0 });

/** The new session of a password change, and what happened to the user's API keys. */
export const PasswordChangedResponse = Type.Object({
  ...SessionResponse.properties,
  api_keys_revoked: ApiKeysRevoked,
});
export type PasswordChangedResponse = Static<typeof PasswordChangedResponse>;

export const PasswordResetDone = Type.Object({
  message: Type.String(),
  api_keys_revoked: ApiKeysRevoked,
});
export type PasswordResetDone = Static<typeof PasswordResetDone>;

export const UpdateProfileRequest = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  notify_search_ready: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type UpdateProfileRequest = Static<typeof UpdateProfileRequest>;

export const DeleteAccountRequest = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 200, errorMessage: { minLength: 'Please enter your password' } }),
}, { additionalProperties: false });
export type DeleteAccountRequest = Static<typeof DeleteAccountRequest>;

/** A plain confirmation, e.g. the same answer to every password reset request. */
export const MessageResponse = Type.Object({ message: Type.String() });
export type MessageResponse = Static<typeof MessageResponse>;

/** Internal (service-to-service) calls that change a user's role or status. */
export const SetRoleRequest = Type.Object({ role: Role, actor_id: Type.Optional(Type.String()) }, { additionalProperties: false });
export const SetStatusRequest = Type.Object({ status: UserStatus, actor_id: Type.Optional(Type.String()) }, { additionalProperties: false });

/** Claims carried by an access token. */
export interface AccessClaims {
  sub: string;
  email: string;
  name: string;
  role: Role;
  /** The user's session generation when the token was issued; an older one than the user's is refused. */
  gen?: number;
}

const sessionErrors = errorReplies(400, 401, 409, 429);
const accountErrors = errorReplies(400, 401, 429);

/** Auth's public routes: sessions, the profile, passwords and the account itself. */
export const AUTH_ROUTES = declareRoutes('auth', {
  register: { method: 'POST', path: '/api/auth/register', access: 'public', schema: { body: RegisterRequest, response: { 201: SessionResponse, ...sessionErrors } } },
  login: { method: 'POST', path: '/api/auth/login', access: 'public', schema: { body: LoginRequest, response: { 200: SessionResponse, ...sessionErrors } } },
  me: { method: 'GET', path: '/api/auth/me', access: 'user', apiKey: true, schema: { response: { 200: User, ...errorReplies(401) } } },
  updateProfile: { method: 'PATCH', path: '/api/auth/me', access: 'user', schema: { body: UpdateProfileRequest, response: { 200: User, ...accountErrors } } },
  changePassword: { method: 'POST', path: '/api/auth/password', access: 'user', schema: { body: ChangePasswordRequest, response: { 200: PasswordChangedResponse, ...accountErrors } } },
  /** The answer is a JSON file (a download), written as it is, so no reply schema for 200. */
  exportAccount: { method: 'GET', path: '/api/account/export', access: 'user', schema: { response: errorReplies(401, 404, 429, 503) } },
  deleteAccount: { method: 'DELETE', path: '/api/account', access: 'user', schema: { body: DeleteAccountRequest, response: { 200: MessageResponse, ...accountErrors } } },
  verifyEmail: { method: 'POST', path: '/api/auth/verify-email', access: 'public', schema: { body: EmailVerification, response: { 200: MessageResponse, ...accountErrors } } },
  requestPasswordReset: { method: 'POST', path: '/api/auth/password-reset', access: 'public', schema: { body: PasswordResetRequest, response: { 202: MessageResponse, ...accountErrors } } },
  confirmPasswordReset: { method: 'POST', path: '/api/auth/password-reset/confirm', access: 'public', schema: { body: PasswordResetConfirm, response: { 200: PasswordResetDone, ...accountErrors } } },
});
