import type { FetchedResponse } from '../outbound/outboundClient.ts';
import { decodeText } from '../outbound/responseBody.ts';
import type { PageReader } from './pageReader.ts';
import { jsonNesting } from './jsonNesting.ts';

const MAX_TEXT = 10_000;
// Serialising the answer recurses once per level: deeper JSON is shown as text.
const MAX_JSON_NESTING = 256;

/**
 * The `data` of a scrape result: parsed JSON for JSON (nested within bounds), a summary for HTML
 * (read by the parsing pool; throws PageGivenUp), the text (capped) otherwise.
 */
export async function scrapeData(response: FetchedResponse, reader: PageReader): Promise<unknown> {
  const text = decodeText(response.body, response.contentType);
  if (response.kind === 'json' && jsonNesting(text) <= MAX_JSON_NESTING) {
    try {
      return JSON.parse(text);
    } catch { /* declared JSON but is not: show it as text */ }
  }
  if (response.kind === 'html') return reader.summarise(response.url, response.status, text);
  return { status: response.status, content_type: response.contentType ?? null, text: text.slice(0, MAX_TEXT) };
}
