// CSV export of large searches: time to the whole file and the process's peak memory while it streams,
// through the gateway, for 1,000, 10,000 and 50,000 leads. Streamed export means the peak stays flat
// as the search grows. Searches this large cannot be bought (200 leads a search), so they are seeded
// straight into the leads service's own database.
import { startGateway } from '@leadforge/gateway';
import { createMemoryBus } from '@leadforge/kit/events';
import { startServiceForTest } from '@leadforge/testing';
import leadsService from '../services/leads/src/index.ts';
import { startStandInAuth } from '../services/leads/test/support/standInAuth.ts';
import { reportFigures } from './benchResults.ts';

const SIZES = [1_000, 10_000, 50_000];
const USER = 'bench-user';

const auth = await startStandInAuth();
const svc = await startServiceForTest(leadsService, { kind: 'pglite', bus: createMemoryBus(), env: { AUTH_URL: auth.url, LOG_LEVEL: 'error' } });
const gateway = await startGateway({ port: 0, serviceUrls: { leads: svc.url, auth: auth.url } });
const token = auth.tokenFor(USER);
const db = svc.ctx.db;

async function seed(size: number): Promise<string> {
  const id = crypto.randomUUID();
  await db('lead_searches').insert({
    id, user_id: USER, industry: 'Dentists', location: 'London', quantity: 200, status: 'completed', reason: 'done',
    credits: 'settled', finished_at: new Date(), deadline_at: new Date(),
  });
  for (let start = 1; start <= size; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, size - start + 1) }, (_, i) => {
      const n = start + i;
      return {
        search_id: id, position: n, lead_key: `k${n}`, fingerprint: `f${n}`,
        name: `Owner ${n}`, company: `Bright Smiles Dental, "Branch" ${n}`, email: `hello${n}@brightsmiles${n}.example`,
        phone: `+4420794${String(n).padStart(5, '0')}`, website: `https://brightsmiles${n}.example/`, city: n % 7 ? 'London' : '=Zürich',
      };
    });
    await db('leads').insert(rows);
  }
  return id;
}

async function exportOnce(id: string) {
  global.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 10);
  const started = performance.now();
  const res = await fetch(`${gateway.url}/api/lead-searches/${id}/export.csv`, { headers: { authorization: `Bearer ${token}` } });
  let bytes = 0;
  let firstByteMs = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!bytes) firstByteMs = performance.now() - started;
    bytes += chunk.length;
  }
  const totalMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { status: res.status, bytes, first_byte_ms: Math.round(firstByteMs), total_ms: Math.round(totalMs), peak_rss_over_baseline_mb: +((peak - baseline) / 2 ** 20).toFixed(1) };
}

const figures: Record<string, unknown> = {};
for (const size of SIZES) {
  const id = await seed(size);
  await exportOnce(id); // warm-up: first query plans and JIT
  const runs = [await exportOnce(id), await exportOnce(id), await exportOnce(id)];
  const median = [...runs].sort((a, b) => a.total_ms - b.total_ms)[1];
  figures[`leads_${size}`] = {
    size_mb: +(median.bytes / 2 ** 20).toFixed(2),
    first_byte_ms: median.first_byte_ms,
    total_ms: median.total_ms,
    leads_per_s: Math.round(size / (median.total_ms / 1000)),
    peak_rss_over_baseline_mb: Math.max(...runs.map((r) => r.peak_rss_over_baseline_mb)),
  };
}
figures.note = 'Through the local gateway to the leads service on embedded PGlite, all in this process; peak RSS sampled every 10 ms while the client reads and discards the stream.';

await gateway.close();
await svc.stop();
await auth.close();
reportFigures('csvExport', figures);
