import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../src/freePort.ts';

const ephemeralStart = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

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
});
