import { Type, type Static } from 'typebox';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

const REQUIRED_FIELDS = 'Please fill in all required fields';
export const CONTACT_MESSAGE_MAX_LENGTH = 10_000;

export const RECAPTCHA_MESSAGES = {
  missing: 'Please complete the reCAPTCHA verification',
  failed: 'reCAPTCHA verification failed. Please try again.',
} as const;

/**
 * The token is optional in the schema so that a missing one gets the spec's reCAPTCHA sentence
 * (checked by the route) rather than the required-fields one.
 */
export const ContactRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120, errorMessage: { minLength: REQUIRED_FIELDS, maxLength: 'Name is too long (at most 120 characters)' } }),
  email: Type.String({ minLength: 1, maxLength: 254, format: 'email', errorMessage: { minLength: REQUIRED_FIELDS, format: 'Please enter a valid email address', maxLength: 'Email is too long' } }),
  message: Type.String({
    minLength: 1,
    maxLength: CONTACT_MESSAGE_MAX_LENGTH,
    errorMessage: { minLength: REQUIRED_FIELDS, maxLength: 'Message is too long (at most 10,000 characters)' },
  }),
  recaptcha_token: Type.Optional(Type.String({ maxLength: 4096, errorMessage: { maxLength: RECAPTCHA_MESSAGES.failed } })),
}, { additionalProperties: false, errorMessage: { required: REQUIRED_FIELDS } });
export type ContactRequest = Static<typeof ContactRequest>;

export const ContactResponse = Type.Object({ success: Type.Boolean(), submission_id: Type.String() });

/** GET /api/contact/config: what the SPA needs to draw the robot check. */
export const ContactConfigResponse = Type.Object({
  /** `google` loads Google's widget with site_key; `local` draws the built-in test check (local mode only). */
  provider: Type.Union([Type.Literal('google'), Type.Literal('local')]),
  site_key: Type.String(),
  /** True for the local check and for Google's published test keys: never real protection. */
  test_mode: Type.Boolean(),
});
export type ContactConfigResponse = Static<typeof ContactConfigResponse>;

/** The contact form and which robot check it uses. */
export const CONTACT_ROUTES = declareRoutes('contact', {
  send: { method: 'POST', path: '/api/contact', access: 'public', schema: { body: ContactRequest, response: { 201: ContactResponse, ...errorReplies(400, 413, 429, 503) } } },
  config: { method: 'GET', path: '/api/contact/config', access: 'public', schema: { response: { 200: ContactConfigResponse } } },
});
