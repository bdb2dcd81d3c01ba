import { Type } from 'typebox';

export const ContactRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  email: Type.String({ format: 'email', maxLength: 254 }),
  message: Type.String({ minLength: 1, maxLength: 10000 }),
  recaptcha_token: Type.String({ minLength: 1, maxLength: 4096 }),
}, { additionalProperties: false });
