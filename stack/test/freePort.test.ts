import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { claimPort, freePort } from '../src/freePort.ts';

const ephemeralStart = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
const FREE_PORT_MODULE = new URL('../src/freePort.ts', import.meta.url).pathname;

describe('freePort', () => {
  it('picks ports below the kernel\'s ephemeral range (never an outgoing connection\'s local port), each once, that a server can listen on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart);
    }
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => { server.on('error', reject); server.listen(ports[0], '127.0.0.1', resolve); });
    await new Promise((resolve) => server.close(resolve));
  });

  it('never hands out a port another process has picked and not yet listened on, until that process ends', async () => {
    // The other process, as a second test worker or product process would be: it picks a port and keeps it unused.
    const other = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
      `const { freePort } = await import(${JSON.stringify(FREE_PORT_MODULE)}); console.log(await freePort()); setInterval(() => {}, 1000);`],
    { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = await once(other.stdout!, 'data') as [Buffer];
    const port = Number(String(line).trim());
    expect(port).toBeGreaterThanOrEqual(10_000);

    expect(claimPort(port), 'a port the other process holds').toBe(false);
    other.kill('SIGKILL');
    await once(other, 'exit');
    expect(claimPort(port), 'the port once its process has ended').toBe(true);
    expect(claimPort(port), 'a port this process already holds').toBe(false);
  });
});
