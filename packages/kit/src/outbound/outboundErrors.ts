export type OutboundErrorCode =
  | 'bad_url'
  | 'blocked_address'
  | 'robots_disallowed'
  | 'unsupported_content'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  | 'network'
  | 'too_many_redirects'
  | 'quota_exhausted'
  | 'proxy_not_configured'
  | 'aborted';

/** Why an outbound fetch did not give a usable answer; `code` lets callers decide what to do. */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly url: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export const isOutboundError = (error: unknown, code?: OutboundErrorCode): error is OutboundError =>
  error instanceof OutboundError && (code === undefined || error.code === code);
