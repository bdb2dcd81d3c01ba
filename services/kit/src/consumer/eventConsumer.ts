import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Histogram, register } from 'prom-client';
import { Compile } from 'typebox/compile';
import { v5 as uuidv5 } from 'uuid';
import { EVENT_TYPES, EventEnvelope, type EventData, type EventType } from '@leadforge/contracts';
import type { Bus, BusMessage, Subscription } from '../bus/bus.ts';
import type { Db } from '../db/database.ts';
import { eventDataProblem } from '../outbox/eventData.ts';
import { inTraceOf } from '../tracing.ts';

const handledTotal = (register.getSingleMetric('leadforge_events_handled_total') as Counter<'service' | 'group' | 'type' | 'outcome'> | undefined)
  ?? new Counter({
    name: 'leadforge_events_handled_total',
    help: 'Events a consumer took in, by outcome: handled, duplicate, skipped (no handler), parked, malformed, failed (to be delivered again).',
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
/** Names the dead letter of a message without a usable event id by its content, so a redelivery finds the same row. */
const MAX_TRACKED_FAILURES = 10_000;
const MALFORMED_NAMESPACE = '3f6c1a52-7d0e-4b8a-9c61-2f4e5d7a8b90';

export type EventHandler<T extends EventType> = (data: EventData<T>, envelope: EventEnvelope<EventData<T>>, trx: Knex.Transaction) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

/** Thrown by a handler for an event that can never succeed (not a passing fault): it is parked at once. */
export class PoisonEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonEvent';
  }
}

export interface ConsumerOptions {
  db: Db;
  bus: Bus;
  service: string;
  /** Consumer group; also the name its handled events and dead letters are recorded under. */
  group: string;
  topics: string[];
  handlers: EventHandlers;
  /**
   * How long an event whose handler keeps failing is delivered again (the bus waits longer after
   * each failure) before it is parked; default 15 minutes. Long enough to ride out a database
   * restart or a dependency's deploy; bounded because it holds up the later events of its partition.
   */
  retryForMs?: number;
  /**
   * The event types this version's contract defines (default: every type of EVENT_TYPES). A test
   * stands in for an older version of the service with fewer.
   */
  knownTypes?: ReadonlySet<string>;
  logger: Logger;
}

interface Failing {
  since: number;
  attempts: number;
}

/**
 * Applies each event once: the event id is recorded in kit_handled_events in the same transaction as
 * the handler's effect, so a redelivery finds it and is skipped. A handler failure is thrown back to
 * the bus, which delivers the event again with growing delays; only poison (a message that is not an
 * event envelope, data that breaks its contract, a PoisonEvent, or failures beyond retryForMs) is
 * parked in kit_dead_letters, unhandled, for `replayDeadLetters`. A known type without a handler here
 * is skipped, unrecorded. A type this version does not know (a newer version's event during a rolling
 * upgrade) fails like a passing fault: it is delivered again until a replica that knows it takes the
 * partition, and parked (replayable) only if none does within retryForMs.
 */
export function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { db, bus, service, group, topics, handlers, logger } = options;
  const retryForMs = options.retryForMs ?? 15 * 60_000;
  const knownTypes = options.knownTypes ?? new Set(Object.keys(EVENT_TYPES));
  const log = logger.child({ group });
  const failing = new Map<string, Failing>();

  const markHandled = async (trx: Knex.Transaction, eventId: string): Promise<boolean> => {
    const inserted = await trx('kit_handled_events').insert({ consumer: group, event_id: eventId })
      .onConflict(['consumer', 'event_id']).ignore().returning('event_id');
    return inserted.length > 0;
  };

  async function park(topic: string, eventId: string, envelope: unknown, type: string, error: string, attempts: number): Promise<void> {
    await db('kit_dead_letters')
      .insert({ consumer: group, topic, event_id: eventId, envelope: JSON.stringify(envelope), error, attempts })
      .onConflict(['consumer', 'event_id']).merge(['error', 'attempts', 'parked_at']);
    deadLetters.inc({ service, group });
    handledTotal.inc({ service, group, type, outcome: type === 'unknown' ? 'malformed' : 'parked' });
    log.error({ eventId, type, topic, attempts, error }, 'event parked in kit_dead_letters');
  }

  async function parkMalformed({ topic, envelope, undecodable }: BusMessage): Promise<void> {
    const kept = undecodable !== undefined ? { undecodable } : envelope;
    const text = undecodable ?? JSON.stringify(envelope);
    const id = typeof envelope?.id === 'string' && UUID.test(envelope.id) ? envelope.id : uuidv5(`${topic}\n${text}`, MALFORMED_NAMESPACE);
    const why = undecodable !== undefined ? 'not JSON' : 'not an event envelope';
    await park(topic, id, kept, 'unknown', why, 0);
  }

  async function handle(message: BusMessage): Promise<void> {
    const { topic, envelope } = message;
    if (message.undecodable !== undefined || !envelopeValidator.Check(envelope) || !UUID.test(envelope.id)) return parkMalformed(message);
    const { type } = envelope;
    const occurredAt = Date.parse(envelope.occurred_at);
    if (Number.isFinite(occurredAt)) handleDelay.observe({ service, group }, Math.max(0, Date.now() - occurredAt) / 1000);

    if (!knownTypes.has(type)) return retryOrPark(topic, envelope, type, new Error(`event type ${type} is not known to this version of ${service}`));
    const handler = handlers[type as EventType] as EventHandler<EventType> | undefined;
    if (!handler) {
      handledTotal.inc({ service, group, type, outcome: 'skipped' });
      return;
    }
    const problem = eventDataProblem(type, envelope.data);
    if (problem) return park(topic, envelope.id, envelope, type, `invalid data: ${problem}`, 0);

    try {
      const applied = await db.transaction(async (trx) => {
        if (!(await markHandled(trx, envelope.id))) return false;
        await handler(envelope.data as EventData<EventType>, envelope as EventEnvelope<EventData<EventType>>, trx);
        return true;
      });
      failing.delete(envelope.id);
      handledTotal.inc({ service, group, type, outcome: applied ? 'handled' : 'duplicate' });
    } catch (error) {
      return retryOrPark(topic, envelope, type, error);
    }
  }

  /** Throws the failure back for a redelivery, or parks the event once it is poison or has failed too long. */
  async function retryOrPark(topic: string, envelope: EventEnvelope, type: string, error: unknown): Promise<void> {
    const record = failing.get(envelope.id) ?? { since: Date.now(), attempts: 0 };
    record.attempts++;
    failing.set(envelope.id, record);
    // Events whose partition moved to another member never come back here: forget the oldest.
    if (failing.size > MAX_TRACKED_FAILURES) failing.delete(failing.keys().next().value!);
    const detail = error instanceof Error ? error.stack ?? error.message : String(error);
    if (error instanceof PoisonEvent || Date.now() - record.since >= retryForMs) {
      failing.delete(envelope.id);
      return park(topic, envelope.id, envelope, type, detail, record.attempts);
    }
    handledTotal.inc({ service, group, type, outcome: 'failed' });
    throw error;
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
