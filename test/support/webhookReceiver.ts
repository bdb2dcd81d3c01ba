import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncRequestListener, waitFor } from '@leadforge/testing';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: any;
  at: number;
}

/** How the receiver answers the next request: an HTTP status, or never ('hang', a timeout for the sender). */
export type ReceiverAnswer = number | 'hang';

/**
 * A webhook receiver on loopback: records every request with its raw body, answers from a script
 * (then 200). What a user's own endpoint is in the tests.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const script: ReceiverAnswer[] = [];
  let always: ReceiverAnswer | undefined;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(asyncRequestListener(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try { body = JSON.parse(rawBody); } catch { body = undefined; }
    received.push({ headers: req.headers, rawBody, body, at: Date.now() });
    const answer = script.shift() ?? always ?? 200;
    if (answer === 'hang') {
      hanging.add(res);
      return;
    }
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'not now');
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/leadforge`;
  return {
    url,
    received,
    /** The next requests' answers, in order; after them `always` (default 200). */
    answer(...answers: ReceiverAnswer[]) { script.push(...answers); },
    answerAlways(answer: ReceiverAnswer | undefined) { always = answer; },
    async waitFor(count: number, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
      await waitFor(() => received.length, { until: (n) => n >= count, timeoutMs, what: `${count} webhooks at the receiver` });
      return received.slice(0, count);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
