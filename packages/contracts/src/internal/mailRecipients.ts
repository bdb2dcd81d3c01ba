import { Type, type Static } from 'typebox';

/**
 * `GET /internal/users/:id/mail-recipient` on auth (service token, never routed by the gateway):
 * where a service sends a user's emails (billing's receipts, leads' search and monitor notices) and
 * whether they want "your leads are ready". 404 for an unknown, deactivated or deleted account:
 * nobody to write to.
 */
export const MailRecipient = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  notify_search_ready: Type.Boolean(),
});
export type MailRecipient = Static<typeof MailRecipient>;

export const mailRecipientPath = (userId: string) => `/internal/users/${encodeURIComponent(userId)}/mail-recipient`;
