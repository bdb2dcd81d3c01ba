import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';

export const MAX_LEADS_PER_REQUEST = 200;

export const Lead = Type.Object({
  name: Type.String(),
  company: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  website: Type.String(),
  city: Type.String(),
  address: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  socials: Type.Optional(Type.Array(Type.Object({ network: Type.String(), url: Type.String() }))),
  source: Type.Optional(Type.String()),
  place_id: Type.Optional(Type.String()),
});
export type Lead = Static<typeof Lead>;

export const LeadStats = Type.Object({
  total_found: Type.Integer(),
  with_email: Type.Integer(),
  with_phone: Type.Integer(),
  with_website: Type.Integer(),
  credits_used: Type.Integer(),
  remaining_credits: Type.Number(),
});
export type LeadStats = Static<typeof LeadStats>;

export const GenerateLeadsRequest = Type.Object({
  industry: Type.String({ minLength: 1, maxLength: 100 }),
  location: Type.String({ minLength: 1, maxLength: 200 }),
  quantity: Type.Integer({ minimum: 1, maximum: MAX_LEADS_PER_REQUEST, default: 10 }),
}, { additionalProperties: false });
export type GenerateLeadsRequest = Static<typeof GenerateLeadsRequest>;

export const GenerateLeadsResponse = Type.Object({ leads: Type.Array(Lead), stats: LeadStats });

export const SearchStatus = Type.Union([
  Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled'),
]);

export const LeadSearchSummary = Type.Object({
  id: Type.String(),
  industry: Type.String(),
  location: Type.String(),
  quantity: Type.Integer(),
  status: SearchStatus,
  reason: Type.Union([Type.String(), Type.Null()]),
  leads_count: Type.Integer(),
  credits_used: Type.Integer(),
  created_at: Timestamp,
  finished_at: Type.Union([Timestamp, Type.Null()]),
});
