import { Agent, request } from 'undici';
import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { LeasedQueue, type QueueDeclaration } from '@leadforge/kit/work';
import { guardedConnector } from '@leadforge/kit/outbound';
import { systemLookup } from '@leadforge/kit/outbound';
import type { WebhooksConfig } from '../config.ts';
import { nextAttemptAt } from './retrySchedule.ts';
import { webhookSignature } from './webhookSignature.ts';

interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  event: string;
  body: string;
  attempts: number;
  give_up_at: Date;
}

interface Endpoint {
  url: string;
  secret: string;
}

interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookSender {
  /** Begins polling for due deliveries (once the service has started). */
  start(): void;
  /** Sends what is due now instead of at the next poll (after a delivery is queued). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The deliveries to send. A failed one (past its `give_up_at`) is parked; a replay (an endpoint fixed
 * since) makes it pending again for one more attempt, after which it is delivered or failed again.
 */
export const WEBHOOK_DELIVERIES: QueueDeclaration = {
  queue: 'webhooks',
  table: { table: 'webhook_deliveries', pending: "status = 'pending'", parked: "status = 'failed'", order: 'next_attempt_at', lastErrorColumn: 'last_error' },
  unpark: { status: 'pending' },
};

/**
 * Sends queued deliveries on the kit's LeasedQueue: each is claimed under a lease longer than an
 * attempt can last, so another replica skips it meanwhile and a crash mid-send retries it later with
 * the same delivery id (at least once; receivers de-duplicate on Leadforge-Delivery). Retries follow
 * the published schedule (retrySchedule.ts); past `give_up_at` the delivery has failed. Every
 * connection passes the crawler's SSRF guard at connect time; redirects are not followed.
 */
export function webhookSender(db: Db, config: WebhooksConfig, log: Logger): WebhookSender {
  const agent = new Agent({
    connect: guardedConnector({ lookup: systemLookup, allowPrivateNetworks: config.allowPrivateNetworks, connectTimeoutMs: config.timeoutMs }),
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  });
  /** What each attempt answered, for its row in webhook_attempts. */
  const results = new Map<string, { result: AttemptResult; attemptedAt: Date }>();

  async function attempt(delivery: ClaimedDelivery, endpoint: Endpoint): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const answer = await request(endpoint.url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Leadforge-Webhooks/1',
          'leadforge-event': delivery.event,
          'leadforge-delivery': delivery.id,
          'leadforge-signature': webhookSignature(endpoint.secret, delivery.body),
        },
        body: delivery.body,
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      // Only the status matters; the body is read (and dropped) so the connection can be reused.
      await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const ok = answer.statusCode >= 200 && answer.statusCode < 300;
      return { statusCode: answer.statusCode, error: ok ? null : `The endpoint answered ${answer.statusCode}`, durationMs: elapsed() };
    } catch (err) {
      const error = err as Error & { code?: string };
      const timedOut = error.name === 'TimeoutError' || error.code === 'UND_ERR_HEADERS_TIMEOUT' || error.code === 'UND_ERR_BODY_TIMEOUT' || error.code === 'UND_ERR_CONNECT_TIMEOUT';
      const message = timedOut ? `No answer within ${config.timeoutMs} ms` : (error.cause as Error | undefined)?.message ?? error.message;
      return { statusCode: null, error: message.slice(0, 500), durationMs: elapsed() };
    }
  }

  const queue = new LeasedQueue<ClaimedDelivery>({
    db,
    logger: log,
    service: 'leads',
    ...WEBHOOK_DELIVERIES,
    leaseMs: 2 * config.timeoutMs + 5000,
    pollMs: config.pollMs,
    // A slow receiver does not hold up the others.
    parallel: 4,
    retry: { baseMs: config.retryBaseMs, maxMs: 4 * 3600_000 },
    async work(delivery) {
      const endpoint: Endpoint | undefined = await db('webhook_endpoints').where({ id: delivery.endpoint_id }).first('url', 'secret');
      // Deleted meanwhile, with its deliveries: nothing is left to record.
      if (!endpoint) return { kind: 'done' };
      const attemptedAt = new Date();
      const result = await attempt(delivery, endpoint);
      results.set(delivery.id, { result, attemptedAt });
      if (result.error === null) return { kind: 'done' };
      const next = nextAttemptAt(delivery.attempts, new Date(), new Date(delivery.give_up_at), config.retryBaseMs);
      log.info({ deliveryId: delivery.id, attempt: delivery.attempts, error: result.error, retryAt: next?.toISOString() ?? null }, 'webhook delivery failed');
      return next ? { kind: 'retry', error: result.error, at: next } : { kind: 'park', error: result.error };
    },
    done: () => ({ status: 'delivered' }),
    park: () => ({ status: 'failed' }),
    async recorded(trx, delivery) {
      const attempted = results.get(delivery.id);
      results.delete(delivery.id);
      if (!attempted) return;
      const { result, attemptedAt } = attempted;
      // Numbered after those already recorded: a replayed delivery starts its attempts again from one.
      const recordedBefore = await trx('webhook_attempts').where({ delivery_id: delivery.id }).max({ last: 'attempt' }).first();
      await trx('webhook_attempts').insert({
        delivery_id: delivery.id,
        attempt: Number(recordedBefore?.last ?? 0) + 1,
        attempted_at: attemptedAt,
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
      });
    },
  });

  return {
    start: () => queue.start(),
    wake: () => queue.wake(),
    async stop() {
      await queue.stop();
      await agent.close();
    },
  };
}
