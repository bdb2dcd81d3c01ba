import type { EventHandler, EventHandlers } from '@leadforge/kit/events';
import type { EventType } from '@leadforge/contracts';

export class StaleGeneration extends Error {
  constructor(readonly current: string | undefined) {
    super('the read models were rebuilt under a newer generation; this consumer stops');
    this.name = 'StaleGeneration';
  }
}

/**
 * Wraps every handler so that it writes only while `generation` is still the database's: with several
 * admin replicas, a rebuild started on one must stop the others' old consumers from writing into the
 * emptied tables (their events are replayed by the new generation anyway). `FOR SHARE` orders each
 * event against the rebuild, which updates the generation row before emptying the tables.
 */
export function guardedByGeneration(handlers: EventHandlers, generation: string, onStale: () => void): EventHandlers {
  const guarded: Record<string, EventHandler<EventType>> = {};
  for (const [type, handler] of Object.entries(handlers) as [EventType, EventHandler<EventType>][]) {
    guarded[type] = async (data, envelope, trx) => {
      const row = await trx('rm_generation').where({ id: 1 }).forShare().first('generation');
      if (row?.generation !== generation) {
        onStale();
        throw new StaleGeneration(row?.generation);
      }
      await handler(data, envelope, trx);
    };
  }
  return guarded as EventHandlers;
}
