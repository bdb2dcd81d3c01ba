import crypto from 'node:crypto';
import { EVENT_TYPES, type EventData, type EventEnvelope, type EventType } from '@leadforge/contracts';
import type { Bus } from '@leadforge/kit';

/** Publishes an event on the bus as its owning service would, for consumers under test. */
export async function publishEvent<T extends EventType>(bus: Bus, type: T, key: string, data: EventData<T>): Promise<EventEnvelope<EventData<T>>> {
  const envelope: EventEnvelope<EventData<T>> = { id: crypto.randomUUID(), type, version: 1, occurred_at: new Date().toISOString(), key, data };
  await bus.publish([{ topic: EVENT_TYPES[type].topic, key, envelope }]);
  return envelope;
}

/** Retries `check` until it stops throwing (consumers catch up asynchronously). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
