/**
 * A signal during `npm run start:distributed`'s start stops what was started, in reverse order, before
 * the launcher exits. What it does with a process that dies after the start is supervisedCrashes.ts,
 * on the stack of product.test.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../stack/src/freePort.ts';
import { missingPrerequisites } from '../../stack/src/distributed/prerequisites.ts';
import { startedLines, stoppedLines } from '../support/distributedStack.ts';
import { isolatedEnv, nodeArgsOf, processAlive } from '../support/productProcess.ts';
import { waitFor } from '@leadforge/testing';

const missing = missingPrerequisites();
const skipReason = missing ? ` (skipped: ${missing.what} missing; ${missing.install})` : '';
const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

describe.skipIf(Boolean(missing))(`a signal during start:distributed's start${skipReason}`, () => {
  it('stops what was started, in reverse order, before the launcher exits', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-dist-signal-'));
    fs.chmodSync(dataDir, 0o755);
    // The process runtime, whatever the run's LEADFORGE_RUNTIME: product.test.ts proves the containers one.
    const env = isolatedEnv(await freePort(), dataDir, 'info', { SCRAPER_REPLICAS: '1', LEADFORGE_RUNTIME: 'processes' });
    const child = spawn(process.execPath, nodeArgsOf('start:distributed'), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Interrupted once PostgreSQL, Redis and Kafka run and while the services start.
      await waitFor(() => output, { until: (text) => /✓ auth /.test(text) || child.exitCode !== null, timeoutMs: 400_000, intervalMs: 200, what: 'auth started' });
      expect(output).toMatch(/✓ auth /);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const started = startedLines(output);
    const stopped = stoppedLines(output);
    expect(started.map((s) => s.name).slice(0, 4)).toEqual(['postgres', 'redis', 'kafka', 'auth']);
    // Every process it had started is gone once the launcher has exited, the last started first.
    for (const s of started) expect({ ...s, alive: processAlive(s.pid) }).toEqual({ ...s, alive: false });
    expect(stopped.map((s) => s.name).slice(-4)).toEqual(['auth', 'kafka', 'redis', 'postgres']);
    expect(new Set(stopped.map((s) => s.pid))).toEqual(new Set(started.map((s) => s.pid)));
    expect(output).toMatch(/Stopped\./);
    expect(fs.existsSync(path.join(dataDir, 'topology.json'))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 600_000);
});
