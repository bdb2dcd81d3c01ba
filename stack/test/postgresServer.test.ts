import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin, startPostgres, type PostgresServer } from '../src/infrastructure/index.ts';
import { isAlive, listeningAddresses, LOOPBACK_V4, processName } from './support/listeners.ts';

const installed = (() => {
  try {
    return Boolean(findPostgresBin());
  } catch {
    return false;
  }
})();

async function query(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!installed)(`a private PostgreSQL server${installed ? '' : ' (skipped: no PostgreSQL; apt-get install -y postgresql)'}`, () => {
  // Reachable by the postgres user, which the server runs as when the tests run as root.
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'lf-pg-test-'));
  fs.chmodSync(base, 0o755);
  const running: PostgresServer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('initialises its folder, listens only on 127.0.0.1, and keeps its data across a restart', async () => {
    const dataDir = path.join(base, 'kept', 'postgres');
    const first = await startPostgres({ dataDir });
    running.push(first);
    expect(processName(first.pid)).toBe('postgres');
    expect(listeningAddresses(first.port)).toEqual([LOOPBACK_V4]);
    expect(fs.readFileSync(path.join(base, 'kept', 'postgres.log'), 'utf8')).toMatch(/ready to accept connections/);

    await first.ensureDatabase('auth');
    await first.ensureDatabase('auth');
    await query(first.url('auth'), 'CREATE TABLE notes (body text)');
    await query(first.url('auth'), 'INSERT INTO notes VALUES ($1)', ['kept']);
    await first.stop();
    expect(isAlive(first.pid)).toBe(false);

    const second = await startPostgres({ dataDir, port: first.port });
    running.push(second);
    expect(second.pid).not.toBe(first.pid);
    expect(await query(second.url('auth'), 'SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
    expect(await query(second.url(), 'SHOW max_connections')).toEqual([{ max_connections: '200' }]);
  });

  it('puts its socket in a short folder when the data folder path is too long for one', async () => {
    const dataDir = path.join(base, 'a-rather-long-folder-name-'.repeat(4), 'postgres');
    const server = await startPostgres({ dataDir, log: () => {} });
    running.push(server);
    const [{ unix_socket_directories: socketDir }] = await query(server.url(), 'SHOW unix_socket_directories');
    expect(path.join(socketDir, `.s.PGSQL.${server.port}`).length).toBeLessThanOrEqual(107);
    expect(fs.existsSync(path.join(socketDir, `.s.PGSQL.${server.port}`))).toBe(true);
    await server.stop();
    expect(fs.existsSync(socketDir)).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)('as root, runs as the postgres user and names a data folder that user cannot reach', async () => {
    const dataDir = path.join(base, 'owned', 'postgres');
    const server = await startPostgres({ dataDir, log: () => {} });
    running.push(server);
    expect(fs.statSync(dataDir).uid).not.toBe(0);
    expect(fs.statSync(`/proc/${server.pid}`).uid).toBe(fs.statSync(dataDir).uid);

    const closed = fs.mkdtempSync(path.join(base, 'closed-'));
    fs.chmodSync(closed, 0o700);
    await expect(startPostgres({ dataDir: path.join(closed, 'postgres') })).rejects.toThrow(`chmod o+x ${closed}`);
  });
});
