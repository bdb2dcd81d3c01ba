import type { FastifyRequest } from 'fastify';
import { principalOf, tooManyRequests, type CounterStore } from '@leadforge/kit/http';

const MINUTE = 60_000;

/** preHandler (after requireUser): at most `perMinute` searches started per user per minute. */
export function searchStartLimit(counters: CounterStore, perMinute: number) {
  return async (request: FastifyRequest) => {
    const { count, resetMs } = await counters.hit(request, { name: 'lead-search-start', windowMs: MINUTE }, principalOf(request).id);
    if (count > perMinute) {
      const seconds = Math.max(1, Math.ceil(resetMs / 1000));
      throw tooManyRequests(`You are starting searches too quickly (at most ${perMinute} a minute). Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`, seconds);
    }
  };
}
