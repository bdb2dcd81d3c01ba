import { Type } from 'typebox';

export const UpdateCreditsRequest = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 64 }),
  credits_change: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
}, { additionalProperties: false });

/** The spec reports credit changes both as update-credits and as a user-action with a signed amount. */
export const UserActionRequest = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 64 }),
  action: Type.Union([
    Type.Literal('promote'), Type.Literal('demote'), Type.Literal('deactivate'), Type.Literal('activate'),
    Type.Literal('credits'),
  ]),
  credits_change: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
}, { additionalProperties: false });
