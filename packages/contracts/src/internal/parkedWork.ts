import { Type, type Static } from 'typebox';
import { declareRoutes, errorReplies, type ServiceName } from '../routeDeclaration.ts';

/** Where a service keeps work it gave up on: one of its queues, its outbox, or its consumers' dead letters. */
export const PARKED_KINDS = ['queue', 'outbox', 'dead_letters'] as const;
export type ParkedKind = (typeof PARKED_KINDS)[number];
// Each literal carries the message: the first error a bad value meets is its branch's.
const KIND_MESSAGE = { errorMessage: 'kind must be queue, outbox or dead_letters' };
export const ParkedKind = Type.Union([Type.Literal('queue', KIND_MESSAGE), Type.Literal('outbox', KIND_MESSAGE), Type.Literal('dead_letters', KIND_MESSAGE)]);

/** One piece of parked work as a service lists it. */
export const ParkedWorkItem = Type.Object({
  kind: ParkedKind,
  /** The queue's name; `outbox` or `dead letters` for the others. */
  name: Type.String(),
  /** Its key where it is parked: a queue row's key, an outbox seq, a dead letter's event id. */
  key: Type.String(),
  /** What it is: the queue's name, or the event type (and, for a dead letter, the consumer group that parked it). */
  what: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Union([Type.Integer(), Type.Null()]),
  parked_at: Type.Union([Type.String(), Type.Null()]),
  /** Whether a replay can make it run again (a queue whose parked rows are final cannot). */
  replayable: Type.Boolean(),
});
export type ParkedWorkItem = Static<typeof ParkedWorkItem>;

/** The most items one service lists at once; `total` counts them all. */
export const PARKED_WORK_LIST_LIMIT = 500;

export const ParkedWorkList = Type.Object({
  /** Oldest first by source: the queues as declared, then the outbox, then the dead letters; at most PARKED_WORK_LIST_LIMIT. */
  items: Type.Array(ParkedWorkItem),
  total: Type.Integer(),
});
export type ParkedWorkList = Static<typeof ParkedWorkList>;

export const ReplayParkedWorkRequest = Type.Object({
  kind: ParkedKind,
  /** The queue, for `kind: queue`. */
  queue: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /** The pieces to replay (their `key`s); none: all of that source. */
  keys: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000, errorMessage: { minItems: 'keys must name at least one piece of work, or be left out to replay them all' } })),
}, { additionalProperties: false });
export type ReplayParkedWorkRequest = Static<typeof ReplayParkedWorkRequest>;

export const ReplayParkedWorkResponse = Type.Object({
  /** How many pieces of work run again. */
  replayed: Type.Integer(),
  /** Keys left parked (a dead letter that holds no event envelope). */
  kept: Type.Array(Type.String()),
  message: Type.String(),
});
export type ReplayParkedWorkResponse = Static<typeof ReplayParkedWorkResponse>;

export const PARKED_WORK_PATH = '/internal/parked-work';

/**
 * `GET /internal/parked-work` and `POST /internal/parked-work/replay` on every service (service token,
 * never routed by the gateway): its parked work, and the one replay over it. The kit registers them.
 */
export function parkedWorkRoutes(service: ServiceName) {
  return declareRoutes(service, {
    list: { method: 'GET', path: PARKED_WORK_PATH, access: 'internal', schema: { response: { 200: ParkedWorkList, ...errorReplies(403) } } },
    replay: {
      method: 'POST', path: `${PARKED_WORK_PATH}/replay`, access: 'internal',
      schema: { body: ReplayParkedWorkRequest, response: { 200: ReplayParkedWorkResponse, ...errorReplies(400, 403, 404, 409) } },
    },
  });
}
