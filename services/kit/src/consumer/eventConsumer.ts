import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Histogram, register } from 'prom-client';
import { Compile } from 'typebox/compile';
import { EventEnvelope, type EventData, type EventType } from '@leadforge/contracts';
import type { Bus, BusMessage, Subscription } from '../bus/bus.ts';
import type { Db } from '../db/database.ts';
import { eventDataProblem } from '../outbox/eventData.ts';
import { inTraceOf } from '../tracing.ts';

const handledTotal = (register.getSingleMetric('leadforge_events_handled_total') as Counter<'service' | 'group' | 'type' | 'outcome'> | undefined)
  ?? new Counter({
    name: 'leadforge_events_handled_total',
    help: 'Events a consumer took in, by outcome: handled, duplicate, skipped (no handler), parked, malformed.',
    labelNames: ['service', 'group', 'type', 'outcome'],
  });
const deadLetters = (register.getSingleMetric('leadforge_dead_letters_total') as Counter<'service' | 'group'> | undefined)
  ?? new Counter({ name: 'leadforge_dead_letters_total', help: 'Events parked in kit_dead_letters.', labelNames: ['service', 'group'] });
const handleDelay = (register.getSingleMetric('leadforge_event_handle_delay_seconds') as Histogram<'service' | 'group'> | undefined)
  ?? new Histogram({
    name: 'leadforge_event_handle_delay_seconds',
    help: 'From an event occurring to a consumer taking it in.',
    labelNames: ['service', 'group'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  });

const envelopeValidator = Compile(EventEnvelope);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type EventHandler<T extends EventType> = (data: EventData<T>, envelope: EventEnvelope<EventData<T>>, trx: Knex.Transaction) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface ConsumerOptions {
  db: Db;
  bus: Bus;
  service: string;
  /** Consumer group; also the name its handled events and dead letters are recorded under. */
  group: string;
  topics: string[];
  handlers: EventHandlers;
  maxAttempts?: number;
  /** Delay before the second attempt; doubles with each further one. */
  retryMs?: number;
  logger: Logger;
}

/**
 * Applies each event once: the event id is recorded in kit_handled_events in the same transaction as
 * the handler's effect, so a redelivery finds it and is skipped. An event that keeps failing (or whose
 * data breaks its contract) is parked in kit_dead_letters and the consumer goes on.
 */
export function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { db, bus, service, group, topics, handlers, logger } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryMs = options.retryMs ?? 200;
  const log = logger.child({ group });

  const markHandled = async (trx: Knex.Transaction, eventId: string): Promise<boolean> => {
    const inserted = await trx('kit_handled_events').insert({ consumer: group, event_id: eventId })
      .onConflict(['consumer', 'event_id']).ignore().returning('event_id');
    return inserted.length > 0;
  };

  async function park(topic: string, envelope: EventEnvelope, error: string, attempts: number): Promise<void> {
    await db.transaction(async (trx) => {
      await trx('kit_dead_letters')
        .insert({ consumer: group, topic, event_id: envelope.id, envelope: JSON.stringify(envelope), error, attempts })
        .onConflict(['consumer', 'event_id']).merge(['error', 'attempts', 'parked_at']);
      await markHandled(trx, envelope.id);
    });
    deadLetters.inc({ service, group });
    handledTotal.inc({ service, group, type: envelope.type, outcome: 'parked' });
    log.error({ eventId: envelope.id, type: envelope.type, topic, attempts, error }, 'event parked in kit_dead_letters');
  }

  async function handle({ topic, envelope }: BusMessage): Promise<void> {
    if (!envelopeValidator.Check(envelope) || !UUID.test(envelope.id)) {
      handledTotal.inc({ service, group, type: 'unknown', outcome: 'malformed' });
      log.error({ topic, envelope }, 'message is not an event envelope; skipped');
      return;
    }
    const { type } = envelope;
    const occurredAt = Date.parse(envelope.occurred_at);
    if (Number.isFinite(occurredAt)) handleDelay.observe({ service, group }, Math.max(0, Date.now() - occurredAt) / 1000);

    const handler = handlers[type as EventType] as EventHandler<EventType> | undefined;
    if (!handler) {
      await db.transaction((trx) => markHandled(trx, envelope.id));
      handledTotal.inc({ service, group, type, outcome: 'skipped' });
      return;
    }
    const problem = eventDataProblem(type, envelope.data);
    if (problem) return park(topic, envelope, `invalid data: ${problem}`, 0);

    for (let attempt = 1; ; attempt++) {
      try {
        const applied = await db.transaction(async (trx) => {
          if (!(await markHandled(trx, envelope.id))) return false;
          await handler(envelope.data as EventData<EventType>, envelope as EventEnvelope<EventData<EventType>>, trx);
          return true;
        });
        handledTotal.inc({ service, group, type, outcome: applied ? 'handled' : 'duplicate' });
        return;
      } catch (error) {
        if (attempt >= maxAttempts) return park(topic, envelope, error instanceof Error ? error.stack ?? error.message : String(error), attempt);
        const delay = retryMs * 2 ** (attempt - 1);
        log.warn({ err: error, eventId: envelope.id, type, attempt, retryInMs: delay }, 'event handler failed; will retry');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  // Each event is handled in a span that continues the trace of the request that caused it.
  const traced = (message: BusMessage) => inTraceOf(
    typeof message.envelope?.traceparent === 'string' ? message.envelope.traceparent : undefined,
    `consume ${message.envelope?.type ?? message.topic}`,
    { 'messaging.destination.name': message.topic, 'messaging.consumer.group.name': group },
    () => handle(message),
  );
  return bus.subscribe({ group, topics, handler: traced });
}
