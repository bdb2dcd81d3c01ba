// What reading a user's standing from auth on every request costs (issue 23: a deleted account must be
// refused at once, so services no longer cache it for 30 s). A kit service with one user route is
// called with a real token, sequentially and 20 at a time: once with the standing read from auth over
// its internal API (every request now), once with it answered in-process (what a cache hit cost
// before). Auth and the service run in this process on embedded PGlite, so the CPU figure is the
// whole added work: the loopback call, auth's route and its indexed read.
import crypto from 'node:crypto';
import { startService, type RunningService, type ServiceDefinition } from '@leadforge/kit/service';
import { createMemoryBus } from '@leadforge/kit/events';
import authService from '../services/auth/src/index.ts';
import { reportFigures } from './benchResults.ts';

const SEQUENTIAL = 2000;
const CONCURRENT = 4000;
const CLIENTS = 20;
const token = crypto.randomBytes(16).toString('hex');
const bus = createMemoryBus();
const env = (extra: NodeJS.ProcessEnv) => ({ ...process.env, DATA_DIR: ':memory:', DATABASE_URL: '', LOG_LEVEL: 'error', INTERNAL_TOKEN: token, ...extra });

const route = (name: string, fromAuth: boolean): ServiceDefinition => ({
  name: 'contact',
  authentication: fromAuth ? undefined : () => ({ lookupStanding: async (_id, claims) => ({ role: claims.role, status: 'active' }) }),
  async routes(app) {
    app.get(`/bench/${name}`, { preHandler: app.requireUser }, async () => ({ ok: true }));
  },
});

async function measure(svc: RunningService, path: string, bearer: string) {
  const get = async () => {
    const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    await res.arrayBuffer();
  };
  for (let i = 0; i < 200; i++) await get();
  const latencies: number[] = [];
  let cpu = process.cpuUsage();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const at = performance.now();
    await get();
    latencies.push(performance.now() - at);
  }
  const sequentialCpu = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  let left = CONCURRENT;
  cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => { while (left-- > 0) await get(); }));
  const seconds = (performance.now() - started) / 1000;
  const concurrentCpu = process.cpuUsage(cpu);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    sequential_p50_ms: round(latencies[Math.floor(SEQUENTIAL / 2)]),
    sequential_p99_ms: round(latencies[Math.floor(SEQUENTIAL * 0.99)]),
    cpu_ms_per_request: round((sequentialCpu.user + sequentialCpu.system) / 1000 / SEQUENTIAL),
    concurrent_requests_per_second: Math.round(CONCURRENT / seconds),
    concurrent_cpu_ms_per_request: round((concurrentCpu.user + concurrentCpu.system) / 1000 / CONCURRENT),
  };
}

const auth = await startService(authService, { bus, port: 0, env: env({}) });
const register = await fetch(`${auth.url}/api/auth/register`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Bench User', email: `bench-${token}@example.com`, password: 'secret123' }),
});
const { access_token: bearer } = await register.json();
const fresh = await startService(route('fresh', true), { bus, port: 0, env: env({ AUTH_URL: auth.url }) });
const inProcess = await startService(route('in-process', false), { bus, port: 0, env: env({ AUTH_URL: auth.url }) });

const readFromAuth = await measure(fresh, '/bench/fresh', bearer);
const answeredInProcess = await measure(inProcess, '/bench/in-process', bearer);
reportFigures('userStanding', {
  standing_read_from_auth: readFromAuth,
  standing_answered_in_process: answeredInProcess,
  added_ms_p50: Math.round((readFromAuth.sequential_p50_ms - answeredInProcess.sequential_p50_ms) * 1000) / 1000,
  added_cpu_ms_per_request: Math.round((readFromAuth.cpu_ms_per_request - answeredInProcess.cpu_ms_per_request) * 1000) / 1000,
});
await Promise.all([fresh.stop(), inProcess.stop()]);
await auth.stop();
await bus.close();
