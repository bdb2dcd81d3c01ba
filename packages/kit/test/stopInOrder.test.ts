import net from 'node:net';
import { once } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { stopInOrder } from '../src/work/deadline.ts';
import { startServiceForTest, waitFor } from '@leadforge/testing';

const never = () => new Promise<never>(() => {});

function recordingLog() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return { lines, error: (fields: object, message: string) => void lines.push({ fields: fields as Record<string, unknown>, message }) };
}

describe('stopInOrder', () => {
  it('goes on past a step still under way at the deadline: names it, forces it, runs the rest', async () => {
    const log = recordingLog();
    const done: string[] = [];
    await stopInOrder([
      { name: 'in-flight requests', stop: never, force: () => done.push('forced') },
      { name: 'the database', stop: async () => { done.push('database'); } },
    ], { ms: 50, log, what: 'the test service' });
    expect(done).toEqual(['forced', 'database']);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0].fields).toMatchObject({ step: 'in-flight requests' });
    expect(log.lines[0].message).toContain('stopping the test service: in-flight requests still under way');
  });

  it('runs every step when one fails, then throws the first failure', async () => {
    const done: string[] = [];
    const stopping = stopInOrder([
      { name: 'a', stop: async () => { throw new Error('a failed'); } },
      { name: 'b', stop: async () => { done.push('b'); throw new Error('b failed'); } },
      { name: 'c', stop: () => void done.push('c') },
    ], { ms: 1_000, log: recordingLog(), what: 'x' });
    await expect(stopping).rejects.toThrow('a failed');
    expect(done).toEqual(['b', 'c']);
  });
});

describe('a service stop', () => {
  it('ends by its shutdown timeout with a request and background work that never end, naming the request and closing its connection', async () => {
    let received = false;
    const errors: { step?: string; pending?: string[] }[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line)) });
    const svc = await startServiceForTest({
      name: 'contact',
      routes: async (app) => {
        app.get('/stuck', async () => { received = true; return never(); });
      },
      start: async () => never,
    }, { kind: 'pglite', env: { SHUTDOWN_TIMEOUT_SECONDS: '1' }, logger });
    const stuck = fetch(`${svc.url}/stuck?token=secret`).then(() => 'answered', () => 'connection closed');
    await waitFor(async () => received, { until: Boolean, what: 'the request to reach its handler' });
    // The test's own timeout is the bound: an unbounded stop waits for the request forever.
    await svc.stop();
    expect(await stuck).toBe('connection closed');
    const overrun = errors.find((e) => e.step === 'in-flight requests');
    expect(overrun?.pending).toEqual([expect.stringMatching(/^GET \/stuck for \d+ ms$/)]);
  });

  it('closes at once a connection with no request under way: one that sent nothing yet, one that sent half its headers', async () => {
    const errors: unknown[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line)) });
    const svc = await startServiceForTest({ name: 'contact', routes: async () => {} }, { kind: 'pglite', env: { SHUTDOWN_TIMEOUT_SECONDS: '5' }, logger });
    const { hostname, port } = new URL(svc.url);
    const connect = async () => {
      const socket = net.connect(Number(port), hostname);
      await once(socket, 'connect');
      // The server resets these connections; the reset is what this test expects.
      socket.on('error', () => {});
      return { socket, closed: new Promise((resolve) => socket.once('close', resolve)) };
    };
    const silent = await connect();
    const halfway = await connect();
    halfway.socket.write('GET /healthz HTTP/1.1\r\nHost: leadforge\r\n');
    // Before, the stop waited for both until its deadline and logged the in-flight step as overrunning.
    await svc.stop();
    await Promise.all([silent.closed, halfway.closed]);
    expect(errors).toEqual([]);
  });
});
