export interface FeedMessage {
  id: number;
  event: string;
  data: any;
  /** Milliseconds from the request to this event's arrival. */
  at: number;
}

/**
 * Reads a Server-Sent Events stream as a browser would, until it ends (or `until` says stop): every
 * `id/event/data` block in order, with its arrival time.
 */
export async function readFeed(url: string, headers: Record<string, string>, options: { until?: (m: FeedMessage) => boolean; timeoutMs?: number; onMessage?: (m: FeedMessage) => void } = {}) {
  const started = Date.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 20_000);
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const messages: FeedMessage[] = [];
  if (res.status !== 200 || !res.body) {
    clearTimeout(timer);
    return { status: res.status, headers: res.headers, messages, body: await res.text() };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (!line || line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          fields[line.slice(0, colon)] = (fields[line.slice(0, colon)] ? `${fields[line.slice(0, colon)]}\n` : '') + line.slice(colon + 1).replace(/^ /, '');
        }
        if (!fields.event) continue;
        const message = { id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data), at: Date.now() - started };
        messages.push(message);
        options.onMessage?.(message);
        if (options.until?.(message)) {
          abort.abort();
          return { status: res.status, headers: res.headers, messages, body: '' };
        }
      }
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, headers: res.headers, messages, body: '' };
}
