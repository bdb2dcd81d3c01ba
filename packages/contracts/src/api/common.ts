import { Type, type Static } from 'typebox';

/** Every error response: a human-readable `detail`, optionally a machine code. */
export const ErrorBody = Type.Object({
  detail: Type.String(),
  code: Type.Optional(Type.String()),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const MessageBody = Type.Object({ message: Type.String() });
export type MessageBody = Static<typeof MessageBody>;

export const SuccessBody = Type.Object({ success: Type.Boolean() });

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });

export const Role = Type.Union([Type.Literal('user'), Type.Literal('admin')]);
export type Role = Static<typeof Role>;
export const UserStatus = Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('deleted')]);
export type UserStatus = Static<typeof UserStatus>;

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
}, { additionalProperties: false });

export const ACTIVITY_DAYS_DEFAULT = 30;
export const ACTIVITY_DAYS_MAX = 90;

/** How many UTC days back, today included. Shared by the leads and the credits activity. */
export const ActivityQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: ACTIVITY_DAYS_MAX, default: ACTIVITY_DAYS_DEFAULT, errorMessage: `days must be a whole number from 1 to ${ACTIVITY_DAYS_MAX}` })),
});
export type ActivityQuery = Static<typeof ActivityQuery>;

/** The last `count` UTC days as YYYY-MM-DD, oldest first, today last: the days an activity answer lists. */
export function lastUtcDays(count: number, now: Date): string[] {
  return Array.from({ length: count }, (_, i) => new Date(now.getTime() - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}
