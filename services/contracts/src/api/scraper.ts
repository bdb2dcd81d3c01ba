import { Type } from 'typebox';

export const ScrapeRequest = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false });
export const ScrapeResponse = Type.Object({ url: Type.String(), scraped_at: Type.String(), data: Type.Unknown() });

export const DEFAULT_PROXY_QUOTA = 10000;

export const DecodoQuotaRequest = Type.Object({
  remaining_requests: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
}, { additionalProperties: false });
