import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { findRedisServer, startRedis, type RedisServer } from '../src/infrastructure/index.ts';
import { isAlive, listeningAddresses, LOOPBACK_V4, processName } from './support/listeners.ts';

const installed = (() => {
  try {
    return Boolean(findRedisServer());
  } catch {
    return false;
  }
})();

describe.skipIf(!installed)(`a private Redis server${installed ? '' : ' (skipped: no redis-server; apt-get install -y redis-server)'}`, () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-redis-test-'));
  const running: RedisServer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('listens only on 127.0.0.1 and keeps its data in the append-only file across a restart', async () => {
    const dataDir = path.join(base, 'redis');
    const first = await startRedis({ dataDir });
    running.push(first);
    expect(processName(first.pid)).toBe('redis-server');
    expect(listeningAddresses(first.port)).toEqual([LOOPBACK_V4]);

    const client = new Redis(first.url);
    await client.set('leadforge:kept', 'yes');
    expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    client.disconnect();
    await first.stop();
    expect(isAlive(first.pid)).toBe(false);
    expect(fs.readFileSync(path.join(base, 'redis.log'), 'utf8')).toMatch(/ready to accept connections/i);

    const second = await startRedis({ dataDir });
    running.push(second);
    const again = new Redis(second.url);
    try {
      expect(await again.get('leadforge:kept')).toBe('yes');
    } finally {
      again.disconnect();
    }
  });

  it('shuts down cleanly by itself when the process that started it dies by SIGKILL', async () => {
    const dataDir = path.join(base, 'orphan', 'redis');
    const script = `import { startRedis } from ${JSON.stringify(fileURLToPath(new URL('../src/infrastructure/index.ts', import.meta.url)))};
      const server = await startRedis({ dataDir: ${JSON.stringify(dataDir)} });
      console.log(server.pid, server.url);
      setInterval(() => {}, 1000);`;
    const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [pid, url] = await new Promise<string[]>((resolve) => owner.stdout.once('data', (chunk) => resolve(String(chunk).trim().split(' '))));
    const client = new Redis(url!);
    await client.set('leadforge:orphan', 'flushed');
    client.disconnect();

    owner.kill('SIGKILL');
    await expect.poll(() => isAlive(Number(pid)), { timeout: 10_000, interval: 200 }).toBe(false);
    expect(fs.readFileSync(path.join(base, 'orphan', 'redis.log'), 'utf8')).toMatch(/Received SIGTERM/);
    const restarted = await startRedis({ dataDir });
    running.push(restarted);
    const again = new Redis(restarted.url);
    try {
      expect(await again.get('leadforge:orphan')).toBe('flushed');
    } finally {
      again.disconnect();
    }
  });
});
