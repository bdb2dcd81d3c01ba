import {
  PARKED_WORK_PATH, SERVICES, type AdminParkedWorkItem, type AdminParkedWorkResponse, type AdminReplayParkedWorkRequest,
  type ParkedWorkList, type ParkedWorkOfService, type ParkedWorkQuery, type ReplayParkedWorkResponse, type ServiceName,
} from '@leadforge/contracts';
import { parkedWorkList, replayParked, type ServiceContext } from '@leadforge/kit/service';

const why = (error: unknown) => (error as Error)?.message ?? String(error);

/** One service's parked work: admin's own read here, the others' through their internal route. */
function parkedWorkOf(ctx: ServiceContext, service: ServiceName): Promise<ParkedWorkList> {
  // Admin runs no queue of its own: its outbox and its dead letters only.
  if (service === ctx.name) return parkedWorkList(ctx.db, []);
  return ctx.internal.call<ParkedWorkList>(service, 'GET', PARKED_WORK_PATH, { timeoutMs: 5000 });
}

/**
 * The parked-work view across services: each is asked at once, one that does not answer is reported
 * with its reason (the others still show). Oldest first, then filtered and paginated here.
 */
export async function parkedWorkAcross(ctx: ServiceContext, query: ParkedWorkQuery): Promise<AdminParkedWorkResponse> {
  const page = query.page ?? 1;
  const pageSize = query.page_size ?? 25;
  const asked = query.service ? [query.service] : SERVICES;
  const answers = await Promise.all(asked.map(async (service) => {
    try {
      return { service, list: await parkedWorkOf(ctx, service), error: null };
    } catch (error) {
      return { service, list: { items: [], total: 0 }, error: why(error) };
    }
  }));
  const services: ParkedWorkOfService[] = answers.map(({ service, list, error }) => ({
    service, total: list.total, error,
    queue: list.items.filter((item) => item.kind === 'queue').length,
    outbox: list.items.filter((item) => item.kind === 'outbox').length,
    dead_letters: list.items.filter((item) => item.kind === 'dead_letters').length,
  }));
  const items: AdminParkedWorkItem[] = answers
    .flatMap(({ service, list }) => list.items.map((item) => ({ service, ...item })))
    .filter((item) => !query.kind || item.kind === query.kind)
    .sort((a, b) => (a.parked_at ?? '9').localeCompare(b.parked_at ?? '9'));
  return { items: items.slice((page - 1) * pageSize, page * pageSize), page, page_size: pageSize, total: items.length, services };
}

/** The one replay, done by the service that owns the work (its workers and relay are woken there). */
export function replayParkedWorkOf(ctx: ServiceContext, { service, ...request }: AdminReplayParkedWorkRequest): Promise<ReplayParkedWorkResponse> {
  if (service === ctx.name) return replayParked(ctx.db, service, [], request);
  // Replaying twice replays nothing more: an answer lost on the way is safely asked for again.
  return ctx.internal.call<ReplayParkedWorkResponse>(service, 'POST', `${PARKED_WORK_PATH}/replay`, { body: request, timeoutMs: 10_000, idempotent: true });
}
