// Credit reservations per second against ONE account under contention: 50 concurrent clients each
// reserve 1 credit at a time over billing's internal HTTP API until the balance runs out. At the end
// the balance must be exactly the start minus the reservations that succeeded (and 0), and the
// ledger must sum to it. Runs on embedded PGlite, and on Postgres when TEST_DATABASE_URL or
// DATABASE_URL points at a server.
import crypto from 'node:crypto';
import { startService } from '@leadforge/kit/service';
import { createMemoryBus } from '@leadforge/kit/events';
import { createFreshPostgres } from '@leadforge/testing';
import billingService from '../services/billing/src/index.ts';
import { reportFigures } from './benchResults.ts';

const CLIENTS = 50;
const CREDITS = Number(process.env.BENCH_RESERVATION_CREDITS ?? 5000);
const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

async function run(kind: 'pglite' | 'postgres') {
  const fresh = kind === 'postgres' ? await createFreshPostgres('bench_billing') : undefined;
  const bus = createMemoryBus();
  const svc = await startService(billingService, {
    bus,
    port: 0,
    env: { ...process.env, DATA_DIR: ':memory:', DATABASE_URL: fresh?.url ?? '', BILLING_DATABASE_URL: '', LOG_LEVEL: 'error', PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '' },
  });
  const headers = { 'content-type': 'application/json', 'x-internal-token': svc.ctx.config.internalToken };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  const userId = crypto.randomUUID();
  await post('/internal/credits/adjust', { user_id: userId, delta: CREDITS, actor_id: 'bench', idempotency_key: `seed-${userId}` });

  let held = 0;
  let refused = 0;
  let errors = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (;;) {
      const t = performance.now();
      const key = crypto.randomUUID();
      const res = await post('/internal/reservations', { user_id: userId, amount: 1, ref: `bench:${key}`, idempotency_key: key });
      latencies.push(performance.now() - t);
      if (res.status === 201) held++;
      else if (res.status === 402) {
        refused++;
        return;
      } else {
        errors++;
        return;
      }
    }
  }));
  const seconds = (performance.now() - started) / 1000;

  const balance = (await fetch(`${svc.url}/internal/balances/${userId}`, { headers }).then((r) => r.json())).balance as number;
  const [{ sum }] = await svc.ctx.db('credit_ledger').where({ user_id: userId }).sum({ sum: 'delta' });
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1));
  await svc.stop();
  await bus.close();
  await fresh?.drop();

  const exact = balance === CREDITS - held && Number(sum) === balance && balance === 0 && errors === 0;
  if (!exact) throw new Error(`balance not exact on ${kind}: start ${CREDITS}, held ${held}, balance ${balance}, ledger sum ${sum}, errors ${errors}`);
  return {
    database: kind,
    clients: CLIENTS,
    starting_balance: CREDITS,
    reservations_held: held,
    refused_402: refused,
    other_errors: errors,
    reservations_per_s: Math.round(held / seconds),
    p50_ms: pct(0.5),
    p99_ms: pct(0.99),
    final_balance: balance,
    ledger_sum: Number(sum),
    balance_exact: exact,
  };
}

const results = [await run('pglite')];
if (postgresUrl) results.push(await run('postgres'));
reportFigures('reservations', { runs: results });
