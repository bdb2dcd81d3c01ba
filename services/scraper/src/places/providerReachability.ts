import type { PlacesStatusResponse } from '@leadforge/contracts';
import { isOutboundError } from '@leadforge/kit/outbound';
import type { FetchJson } from './types.ts';

/** A provider the engine depends on, and an address of it that answers cheaply. */
export interface ProviderProbe {
  name: string;
  url: string;
}

/**
 * Whether each provider answers at all: any HTTP answer (a 404 of a status page included) is
 * reached; no answer (refused, no route, no name, timed out) is not. Costs one request each, once.
 */
export async function checkProviders(fetchJson: FetchJson, probes: ProviderProbe[], timeoutMs: number): Promise<PlacesStatusResponse> {
  const providers = await Promise.all(probes.map(async ({ name, url }) => {
    try {
      await fetchJson(url, { signal: AbortSignal.timeout(timeoutMs) });
      return { name, reachable: true };
    } catch (error) {
      if (isOutboundError(error, 'http_status')) return { name, reachable: true };
      return { name, reachable: false, detail: (error as Error).message.slice(0, 300) };
    }
  }));
  return { reachable: providers.every((provider) => provider.reachable), providers, checked_at: new Date().toISOString() };
}
