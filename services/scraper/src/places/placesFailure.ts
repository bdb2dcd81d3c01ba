import type { SearchFailureCode } from '@leadforge/contracts';
import { isOutboundError } from '@leadforge/kit/outbound';

/** Why the places of a search could not be had, as the contracts' code, with the places the geocoder offered instead. */
export class PlacesFailure extends Error {
  constructor(readonly code: SearchFailureCode, message: string, readonly candidates: string[] = []) {
    super(message);
    this.name = 'PlacesFailure';
  }
}

/**
 * The code of a provider's failure: no answer at all (refused, timed out, no route, a 5xx) is
 * unreachable, a 429 or a spent proxy quota is the quota, anything else the provider's own error.
 */
export function failureCodeOf(error: unknown): SearchFailureCode {
  if (error instanceof PlacesFailure) return error.code;
  if (isOutboundError(error, 'quota_exhausted')) return 'provider_quota_exhausted';
  if (isOutboundError(error, 'network') || isOutboundError(error, 'timeout')) return 'provider_unreachable';
  if (isOutboundError(error, 'proxy_not_configured')) return 'no_source_configured';
  if (isOutboundError(error, 'http_status')) {
    if (error.status === 429) return 'provider_quota_exhausted';
    if (error.status !== undefined && error.status >= 500) return 'provider_unreachable';
  }
  return 'provider_error';
}

/** What fails a search whose every source failed: one code if they agree, else the one a user can act on first. */
export function combinedFailureCode(codes: SearchFailureCode[]): SearchFailureCode {
  if (codes.length && codes.every((code) => code === codes[0])) return codes[0];
  const order: SearchFailureCode[] = ['provider_quota_exhausted', 'provider_unreachable', 'provider_error', 'no_source_configured'];
  return order.find((code) => codes.includes(code)) ?? 'provider_error';
}
