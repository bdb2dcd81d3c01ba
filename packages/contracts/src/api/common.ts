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
