import crypto from 'node:crypto';
import type { Bus } from '@leadforge/kit/events';
import { EVENT_TYPES, type EventData, type EventType } from '@leadforge/contracts';

/** Publishes an event as its producer's outbox relay would; resolves once every consumer handled it. */
export async function publishEvent<T extends EventType>(bus: Bus, type: T, key: string, data: EventData<T>, id: string = crypto.randomUUID()): Promise<void> {
  await bus.publish([{
    topic: EVENT_TYPES[type].topic,
    key,
    envelope: { id, type, version: 1, occurred_at: new Date().toISOString(), key, data },
  }]);
}
