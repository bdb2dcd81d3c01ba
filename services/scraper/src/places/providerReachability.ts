import type { PlacesStatusResponse } from '@leadforge/contracts';
import { isOutboundError } from '@leadforge/kit/outbound';
import type { FetchJson } from './types.ts';

/** A provider the engine depends on, and an address of it that answers cheaply. */
export interface ProviderProbe {
  name: string;
  url: string;
}

export interface ReachabilityCheck {
  timeoutMs: number;
  /** Tries of a provider that did not answer: a start-up busy with its databases can miss one answer. */
  attempts: number;
  pauseMs: number;
  /** Ends the check (the service stopping): what is unanswered by then is not reported. */
  signal: AbortSignal;
}

async function answers(fetchJson: FetchJson, url: string, check: ReachabilityCheck): Promise<string | undefined> {
  try {
    await fetchJson(url, { signal: AbortSignal.any([check.signal, AbortSignal.timeout(check.timeoutMs)]) });
    return undefined;
  } catch (error) {
    if (isOutboundError(error, 'http_status')) return undefined;
    return (error as Error).message.slice(0, 300);
  }
}

/**
 * Whether each provider answers at all: any HTTP answer (a 404 of a status page included) is
 * reached; no answer (refused, no route, no name, timed out) is not, once every attempt has failed.
 */
export async function checkProviders(fetchJson: FetchJson, probes: ProviderProbe[], check: ReachabilityCheck): Promise<PlacesStatusResponse> {
  const providers = await Promise.all(probes.map(async ({ name, url }) => {
    let failure: string | undefined;
    for (let attempt = 1; attempt <= check.attempts; attempt++) {
      failure = await answers(fetchJson, url, check);
      if (failure === undefined || check.signal.aborted) return { name, reachable: true };
      if (attempt < check.attempts) await new Promise((resolve) => setTimeout(resolve, check.pauseMs).unref());
    }
    return { name, reachable: false, detail: failure };
  }));
  return { reachable: providers.every((provider) => provider.reachable), providers, checked_at: new Date().toISOString() };
}
