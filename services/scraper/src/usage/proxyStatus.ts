import type { ProxyStatsResponse } from '@leadforge/contracts';
import type { FetchJson } from '../places/index.ts';
import type { OutboundClient } from '../outbound/outboundClient.ts';

export interface ProxyStatusDeps {
  client: Pick<OutboundClient, 'throughProxy'>;
  fetchJson: FetchJson;
  proxyUrl?: string;
  proxyCheckUrl: string;
  decodoApiBase: string;
  decodoApiKey?: string;
}

/** One subscription of GET /v2/subscriptions (Decodo's public API); traffic figures are GB as strings. */
interface DecodoSubscription {
  traffic_limit?: string | number | null;
  traffic?: string | number | null;
  service_type?: string;
  valid_until?: string;
}

function usernameOf(proxyUrl: string | undefined): string | null {
  if (!proxyUrl) return null;
  try {
    return decodeURIComponent(new URL(proxyUrl).username) || null;
  } catch {
    return null;
  }
}

const gb = (value: number): string => `${Math.round(value * 100) / 100} GB`;

/** "21.25 GB of 25 GB left - ..." from the first subscription; the part after ' - ' is the note the tab shows. */
function balanceOf(subscriptions: unknown): string {
  const list = Array.isArray(subscriptions) ? subscriptions as DecodoSubscription[] : [];
  const subscription = list[0];
  if (!subscription) return 'No subscription - the Decodo account has no active subscription';
  const limit = Number(subscription.traffic_limit);
  const used = Number(subscription.traffic);
  const kind = subscription.service_type ? subscription.service_type.replace(/_/g, ' ') : 'proxy';
  const until = subscription.valid_until ? `, valid until ${subscription.valid_until}` : '';
  if (!Number.isFinite(limit)) return `${Number.isFinite(used) ? gb(used) : 'unknown'} used - ${kind} subscription traffic${until}`;
  const left = Math.max(0, limit - (Number.isFinite(used) ? used : 0));
  return `${gb(left)} of ${gb(limit)} left - ${kind} subscription traffic${until}`;
}

/**
 * The Proxy Stats card: a request through the proxy right now (connection test), and the
 * subscription's traffic from Decodo's account API, which has no money balance to report.
 */
export async function readProxyStatus(deps: ProxyStatusDeps): Promise<ProxyStatsResponse> {
  const last_updated = new Date().toISOString();
  const username = usernameOf(deps.proxyUrl);
  const errors: string[] = [];
  const notes: string[] = [];

  let connected = false;
  if (!deps.proxyUrl) {
    notes.push('DECODO_PROXY_URL is not set: the scraper fetches websites directly, without the proxy.');
  } else {
    try {
      const answer = await deps.client.throughProxy(deps.proxyCheckUrl, AbortSignal.timeout(15_000));
      connected = answer.status >= 200 && answer.status < 300;
      if (!connected) errors.push(`The proxy connection test answered HTTP ${answer.status}.`);
    } catch (error) {
      errors.push(`The proxy connection test failed: ${(error as Error).message}`);
    }
  }

  let balance = 'Unknown - DECODO_API_KEY is not set, so the subscription traffic cannot be read';
  if (deps.decodoApiKey) {
    try {
      const subscriptions = await deps.fetchJson(`${deps.decodoApiBase}/v2/subscriptions`, {
        headers: { authorization: deps.decodoApiKey },
        signal: AbortSignal.timeout(15_000),
      });
      balance = balanceOf(subscriptions);
    } catch (error) {
      balance = 'Unknown - the Decodo account API did not answer';
      errors.push(`Could not read the Decodo subscription: ${(error as Error).message}`);
    }
  } else {
    notes.push('Set DECODO_API_KEY to show the subscription traffic left.');
  }

  return {
    status: !deps.proxyUrl ? 'Not configured' : connected ? 'Connected' : 'Disconnected',
    connection_test: !deps.proxyUrl ? 'Not configured' : connected ? 'Success' : 'Failed',
    balance,
    note: notes.length ? notes.join(' ') : null,
    username,
    last_updated,
    error: errors.length ? errors.join(' ') : null,
  };
}
