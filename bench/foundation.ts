// Foundation figures: cold start of `npm start` to the first 200 from /healthz through the gateway,
// and GET /api/auth/me through the gateway against a bare fastify "hello" in the same run.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { startLocalStack } from '../test/support/localStack.ts';
import { apiClient, bearer } from '../test/support/api.ts';
import { reportFigures } from './benchResults.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 20;

async function firstHealthy(url: string, startedAt: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return Date.now() - startedAt;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function load(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return { requests_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx, errors: r.errors };
}

// Two starts: the first creates the embedded databases (one-time), the second is a normal cold start.
const coldStarts: number[] = [];
let stack = await startLocalStack();
const dataDir = stack.dataDir;
for (let i = 0; i < 2; i++) {
  if (i > 0) {
    const t = Date.now();
    stack = await startLocalStack({ dataDir });
    coldStarts.push(await firstHealthy(stack.url, t));
  } else {
    coldStarts.push(Number.NaN);
  }
  if (i === 0) await stack.stop();
}
const firstRunStart = await (async () => {
  await stack.stop();
  const fresh = await import('node:fs').then((fs) => fs.mkdtempSync('/tmp/leadforge-bench-'));
  const t = Date.now();
  stack = await startLocalStack({ dataDir: fresh });
  return firstHealthy(stack.url, t);
})();

const api = apiClient(stack.url);
const reg = await api('POST', '/api/auth/register', { name: 'Bench', email: 'bench@example.com', password: 'secret123' });
const me = await load(`${stack.url}/api/auth/me`, bearer(reg.body.access_token));
await stack.stop();

const hello = Fastify();
hello.get('/', async () => ({ hello: 'world' }));
await hello.listen({ port: 0, host: '127.0.0.1' });
const address = hello.server.address() as { port: number };
const bare = await load(`http://127.0.0.1:${address.port}/`);
await hello.close();

reportFigures('foundation', {
  cold_start_ms_first_run_creating_databases: firstRunStart,
  cold_start_ms_existing_data: coldStarts[1],
  duration_s: DURATION_S,
  connections: CONNECTIONS,
  me_through_gateway: me,
  bare_fastify_hello: bare,
  me_to_hello_throughput_ratio: Number((me.requests_per_s / bare.requests_per_s).toFixed(3)),
});
