import {
  PARKED_WORK_LIST_LIMIT, parkedWorkRoutes, type ParkedWorkList, type ReplayParkedWorkRequest, type ReplayParkedWorkResponse, type ServiceName,
} from '@leadforge/contracts';
import type { Db } from '../db/database.ts';
import { handle, type App } from '../http/declaredRoutes.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { listParkedWork, replayParkedWork, type ParkedItem, type ParkedSource } from '../events/parkedWork.ts';
import type { QueueDeclaration } from '../work/leasedQueue.ts';

const nameOf = (source: ParkedSource) => (source.kind === 'queue' ? source.queue : source.kind === 'outbox' ? 'outbox' : 'dead letters');

const asListed = (item: ParkedItem) => ({
  kind: item.source.kind, name: nameOf(item.source), key: item.key, what: item.what, error: item.error,
  attempts: item.attempts, parked_at: item.parkedAt ? new Date(item.parkedAt).toISOString() : null, replayable: item.replayable,
});

/** A service's parked work as its internal route answers it (the admin service reads its own this way). */
export async function parkedWorkList(db: Db, queues: readonly QueueDeclaration[]): Promise<ParkedWorkList> {
  const items = await listParkedWork(db, queues);
  return { items: items.slice(0, PARKED_WORK_LIST_LIMIT).map(asListed), total: items.length };
}

/** The one replay, a bad request answered with a 4xx and its reason: no queue named, an unknown queue, a queue whose parked rows are final. */
export async function replayParked(db: Db, service: ServiceName, queues: readonly QueueDeclaration[], request: ReplayParkedWorkRequest): Promise<ReplayParkedWorkResponse> {
  let source: ParkedSource;
  if (request.kind === 'queue') {
    if (!request.queue) throw badRequest('Name the queue to replay (queue)', 'queue_required');
    const declaration = queues.find((candidate) => candidate.queue === request.queue);
    if (!declaration) throw notFound(`The ${service} service has no queue named ${request.queue}${queues.length ? ` (it has ${queues.map((q) => q.queue).join(', ')})` : ''}`, 'unknown_queue');
    if (!declaration.unpark) throw conflict(`The ${request.queue} queue's parked work is final: it is kept to be read and cannot be replayed`, 'not_replayable');
    source = { kind: 'queue', queue: request.queue };
  } else {
    source = { kind: request.kind };
  }
  const { replayed, kept } = await replayParkedWork(db, service, queues, source, request.keys);
  const where = `${service}'s ${nameOf(source)}`;
  const message = replayed
    ? `${replayed} piece${replayed === 1 ? '' : 's'} of work in ${where} will run again${kept.length ? `; ${kept.length} left parked (no event envelope)` : ''}`
    : `Nothing parked in ${where} matched${kept.length ? `; ${kept.length} left parked (no event envelope)` : ''}`;
  return { replayed, kept, message };
}

/** Every service's `/internal/parked-work` routes (service token only): its queues, its outbox, its dead letters. */
export function registerParkedWorkRoutes(app: App, service: ServiceName, db: Db, queues: readonly QueueDeclaration[]): void {
  const routes = parkedWorkRoutes(service);
  handle(app, routes.list, async () => parkedWorkList(db, queues));
  handle(app, routes.replay, async (request) => replayParked(db, service, queues, request.body));
}
