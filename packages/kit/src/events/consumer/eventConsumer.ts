import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, register } from 'prom-client';
import { Compile } from 'typebox/compile';
import { v5 as uuidv5 } from 'uuid';
import { EVENT_TYPES, EventEnvelope, type EventData, type EventType } from '@leadforge/contracts';
import type { Bus, BusMessage, Subscription } from '../bus/bus.ts';
import type { Db } from '../../db/database.ts';
import { eventDataProblem } from '../outbox/eventData.ts';
import { inTraceOf } from '../../tracing.ts';

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

/** The failing events of each running consumer, read when metrics are collected. */
interface ConsumerFailures {
  service: string;
  group: string;
  failing: Map<string, Failing>;
}
// On globalThis, like the metric it feeds: a second copy of this module must report the same consumers.
const FAILING_CONSUMERS = Symbol.for('leadforge.failingConsumers');
const failingConsumers: Set<ConsumerFailures> = ((globalThis as Record<symbol, unknown>)[FAILING_CONSUMERS] as Set<ConsumerFailures> | undefined)
  ?? ((globalThis as Record<symbol, unknown>)[FAILING_CONSUMERS] = new Set<ConsumerFailures>());
/**
 * An event not tried again for this long has moved to another member of the group (a rebalance):
 * longer than the bus's longest pause between deliveries (60 s on Kafka).
 */
const FAILURE_GONE_MS = 3 * 60_000;
// Registered once per process (a second copy of this module finds it); exported as 0 while nothing
// fails, so an alert can read it for every consumer that runs.
if (!register.getSingleMetric('leadforge_consumer_failing_seconds')) {
  new Gauge({
    name: 'leadforge_consumer_failing_seconds',
    help: 'How long the longest-failing event of a consumer has been failing (its handler throwing, the event delivered again); 0 when none is.',
    labelNames: ['service', 'group'],
    collect() {
      const now = Date.now();
      // Several consumers of one group in a process (tests): the longest failure counts.
      const longest = new Map<string, { service: string; group: string; seconds: number }>();
      for (const { service, group, failing } of failingConsumers) {
        let since = now;
        for (const [eventId, record] of failing) {
          if (now - record.last > FAILURE_GONE_MS) failing.delete(eventId);
          else since = Math.min(since, record.since);
        }
        const key = `${service}\n${group}`;
        longest.set(key, { service, group, seconds: Math.max((now - since) / 1000, longest.get(key)?.seconds ?? 0) });
      }
      this.reset();
      for (const { service, group, seconds } of longest.values()) this.set({ service, group }, seconds);
    },
  });
}
/** A failing event is logged at its first failure, then at most this often while it keeps failing. */
const FAILURE_LOG_EVERY_MS = 60_000;

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
   * Per event type, how long it is delivered again before it is parked, where that differs from
   * retryForMs: shorter for an event someone is waiting on, who is better told it failed.
   */
  retryForMsByType?: { [T in EventType]?: number };
  /**
   * Called in the transaction that parks an event of a known type (never a malformed message), so the
   * service can end what waited on it, e.g. fail a search whose leads could not be stored. The data
   * may break its schema (that is one reason to park). If the hook throws, the event is parked without it.
   */
  onParked?: (parked: ParkedEvent, trx: Knex.Transaction) => Promise<void>;
  /**
   * The event types this version's contract defines (default: every type of EVENT_TYPES). A test
   * stands in for an older version of the service with fewer.
   */
  knownTypes?: ReadonlySet<string>;
  logger: Logger;
}

export interface ParkedEvent {
  topic: string;
  envelope: EventEnvelope;
  type: EventType;
  /** Why it was parked: the last failure. */
  error: string;
  attempts: number;
}

interface Failing {
  since: number;
  /** The latest failed attempt. */
  last: number;
  attempts: number;
  loggedAt: number;
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
/** A consumer's options besides its service's and the group's own: how long it retries, what it does with what it parks. */
export type ConsumeOptions = Pick<ConsumerOptions, 'retryForMs' | 'retryForMsByType' | 'onParked' | 'knownTypes'>;

/** What a service's consumers run on: its name, database, bus and logger (a service's context has them). */
export interface ConsumerHost {
  name: string;
  db: Db;
  bus: Bus;
  log: Logger;
}

/** A service consuming: the consumer group `group` of `host`, over `topics`, with a handler per event type it takes. */
export function consume(host: ConsumerHost, group: string, topics: string[], handlers: EventHandlers, options: ConsumeOptions = {}): Promise<Subscription> {
  return startConsumer({ db: host.db, bus: host.bus, service: host.name, logger: host.log, group, topics, handlers, ...options });
}

export function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { db, bus, service, group, topics, handlers, logger } = options;
  const retryForMs = options.retryForMs ?? 15 * 60_000;
  const retryForMsOf = (type: string) => options.retryForMsByType?.[type as EventType] ?? retryForMs;
  const knownTypes = options.knownTypes ?? new Set(Object.keys(EVENT_TYPES));
  const log = logger.child({ group });
  const failing = new Map<string, Failing>();

  const markHandled = async (trx: Knex.Transaction, eventId: string): Promise<boolean> => {
    const inserted = await trx('kit_handled_events').insert({ consumer: group, event_id: eventId })
      .onConflict(['consumer', 'event_id']).ignore().returning('event_id');
    return inserted.length > 0;
  };

  async function park(topic: string, eventId: string, envelope: unknown, type: string, error: string, attempts: number): Promise<void> {
    const parkIn = (q: Knex | Knex.Transaction) => q('kit_dead_letters')
      .insert({ consumer: group, topic, event_id: eventId, envelope: JSON.stringify(envelope), error, attempts })
      .onConflict(['consumer', 'event_id']).merge(['error', 'attempts', 'parked_at']);
    const { onParked } = options;
    if (onParked && knownTypes.has(type)) {
      try {
        await db.transaction(async (trx) => {
          await parkIn(trx);
          await onParked({ topic, envelope: envelope as EventEnvelope, type: type as EventType, error, attempts }, trx);
        });
      } catch (hookError) {
        // A broken hook must not hold up the partition: the event is parked all the same.
        log.error({ eventId, type, topic, err: hookError }, 'the hook for a parked event failed; parking the event without it');
        await parkIn(db);
      }
    } else {
      await parkIn(db);
    }
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
    const now = Date.now();
    const record = failing.get(envelope.id) ?? { since: now, last: now, attempts: 0, loggedAt: 0 };
    record.attempts++;
    record.last = now;
    failing.set(envelope.id, record);
    // Events whose partition moved to another member never come back here: forget the oldest.
    if (failing.size > MAX_TRACKED_FAILURES) failing.delete(failing.keys().next().value!);
    const detail = error instanceof Error ? error.stack ?? error.message : String(error);
    if (error instanceof PoisonEvent || now - record.since >= retryForMsOf(type)) {
      await park(topic, envelope.id, envelope, type, detail, record.attempts);
      failing.delete(envelope.id);
      return;
    }
    handledTotal.inc({ service, group, type, outcome: 'failed' });
    if (now - record.loggedAt >= FAILURE_LOG_EVERY_MS) {
      record.loggedAt = now;
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ eventId: envelope.id, type, topic, attempts: record.attempts, failingForMs: now - record.since, reason, err: error },
        'event handler failed; the event will be delivered again');
    }
    throw error;
  }

  // Each event is handled in a span that continues the trace of the request that caused it.
  const traced = (message: BusMessage) => inTraceOf(
    typeof message.envelope?.traceparent === 'string' ? message.envelope.traceparent : undefined,
    `consume ${message.envelope?.type ?? message.topic}`,
    { 'messaging.destination.name': message.topic, 'messaging.consumer.group.name': group },
    () => handle(message),
  );
  const failures: ConsumerFailures = { service, group, failing };
  failingConsumers.add(failures);
  return bus.subscribe({ group, topics, handler: traced }).then(
    (subscription) => ({
      async close() {
        failingConsumers.delete(failures);
        await subscription.close();
      },
    }),
    (err) => {
      failingConsumers.delete(failures);
      throw err;
    },
  );
}
