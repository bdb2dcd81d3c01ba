import { Agent, request } from 'undici';
import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit';
import { guardedConnector } from '@leadforge/kit/outbound/guardedConnector.ts';
import { systemLookup } from '@leadforge/kit/outbound/networkGuard.ts';
import type { WebhooksConfig } from '../leadsConfig.ts';
import { nextAttemptAt } from './retrySchedule.ts';
import { webhookSignature } from './webhookSignature.ts';

interface ClaimedDelivery {
  id: string;
  event: string;
  body: string;
  attempts: number;
  give_up_at: Date;
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

/** Deliveries sent at once by one replica: a slow receiver does not hold up the others. */
const PARALLEL = 4;

/**
 * Sends queued deliveries. Each is claimed by pushing its next attempt past the attempt's longest
 * duration first, so another replica skips it meanwhile and a crash mid-send retries it later with
 * the same delivery id (at least once; receivers de-duplicate on Leadforge-Delivery). Every
 * connection passes the crawler's SSRF guard at connect time; redirects are not followed.
 */
export function webhookSender(db: Db, config: WebhooksConfig, log: Logger): WebhookSender {
  const agent = new Agent({
    connect: guardedConnector({ lookup: systemLookup, allowPrivateNetworks: config.allowPrivateNetworks, connectTimeoutMs: config.timeoutMs }),
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  });
  const leaseSeconds = (2 * config.timeoutMs + 5000) / 1000;
  let draining: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let again = false;
  let stopped = false;

  async function claim(): Promise<ClaimedDelivery | undefined> {
    const result = await db.raw(`
      UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ?::double precision)
      FROM webhook_endpoints e
      WHERE e.id = d.endpoint_id AND d.id = (
        SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.event, d.body, d.attempts, d.give_up_at, e.url, e.secret`, [leaseSeconds]);
    return result.rows[0];
  }

  async function attempt(delivery: ClaimedDelivery): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const answer = await request(delivery.url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Leadforge-Webhooks/1',
          'leadforge-event': delivery.event,
          'leadforge-delivery': delivery.id,
          'leadforge-signature': webhookSignature(delivery.secret, delivery.body),
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

  async function record(delivery: ClaimedDelivery, result: AttemptResult, attemptedAt: Date): Promise<void> {
    const delivered = result.error === null;
    const next = delivered ? undefined : nextAttemptAt(delivery.attempts, new Date(), new Date(delivery.give_up_at), config.retryBaseMs);
    await db.transaction(async (trx) => {
      // The endpoint may have been deleted meanwhile (its deliveries with it): then there is nothing to record.
      const updated = await trx('webhook_deliveries').where({ id: delivery.id }).update(
        delivered ? { status: 'delivered' } : next ? { next_attempt_at: next } : { status: 'failed' },
      ).returning('id');
      if (!updated.length) return;
      await trx('webhook_attempts').insert({
        delivery_id: delivery.id,
        attempt: delivery.attempts,
        attempted_at: attemptedAt,
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
      });
    });
    if (next) setTimeout(wake, next.getTime() - Date.now() + 50).unref();
    if (!delivered) log.info({ deliveryId: delivery.id, attempt: delivery.attempts, error: result.error, retryAt: next?.toISOString() ?? null }, 'webhook delivery failed');
  }

  async function work(): Promise<void> {
    for (let delivery = await claim(); delivery && !stopped; delivery = await claim()) {
      const attemptedAt = new Date();
      await record(delivery, await attempt(delivery), attemptedAt);
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      await Promise.all(Array.from({ length: PARALLEL }, work));
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped || !timer) return;
    if (draining) {
      again = true;
      return;
    }
    draining = drain()
      .catch((err) => log.warn({ err }, 'webhook deliveries unavailable; retrying at the next poll'))
      .finally(() => { draining = undefined; });
  }

  return {
    start() {
      timer = setInterval(wake, config.pollMs);
      timer.unref();
      wake();
    },
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await draining;
      await agent.close();
    },
  };
}
