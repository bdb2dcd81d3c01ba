import crypto from 'node:crypto';
import { EVENT_TYPES, type EventData, type EventEnvelope, type EventType } from '@leadforge/contracts';
import type { Bus } from '@leadforge/kit/events';

/** Publishes an event on the bus as its owning service would, for consumers under test. */
export async function publishEvent<T extends EventType>(bus: Bus, type: T, key: string, data: EventData<T>): Promise<EventEnvelope<EventData<T>>> {
  const envelope: EventEnvelope<EventData<T>> = { id: crypto.randomUUID(), type, version: 1, occurred_at: new Date().toISOString(), key, data };
  await bus.publish([{ topic: EVENT_TYPES[type].topic, key, envelope }]);
  return envelope;
}
