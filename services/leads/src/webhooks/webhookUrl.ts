import { badRequest } from '@leadforge/kit/http';
import { parseFetchableUrl, resolveAllowedAddress, systemLookup } from '@leadforge/kit/outbound';
import { isOutboundError } from '@leadforge/kit/outbound';

/**
 * A webhook URL as the user may register it: http(s), no credentials, and a host whose every address
 * passes the crawler's SSRF guard now. Each delivery's connection passes the guard again (a name may
 * change its address after registration).
 */
export async function checkWebhookUrl(raw: string, allowPrivateNetworks: boolean): Promise<string> {
  try {
    const url = parseFetchableUrl(raw.trim());
    await resolveAllowedAddress(url.hostname, systemLookup, allowPrivateNetworks, url.href);
    return url.href;
  } catch (err) {
    if (isOutboundError(err)) throw badRequest(`This webhook URL cannot be used: ${err.message}`, 'bad_webhook_url');
    throw err;
  }
}
