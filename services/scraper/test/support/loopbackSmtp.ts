import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** What the test mail server says to RCPT TO for a recipient: a reply code, or 'silent' to never answer. */
export type RecipientPolicy = (recipient: string) => number | 'silent';

/**
 * A tiny SMTP server on 127.0.0.1 for tests: greets, takes EHLO and MAIL FROM, answers RCPT TO by
 * `policy`, says goodbye to QUIT, and counts connections and the RCPT commands it saw.
 */
export async function startLoopbackSmtp(policy: RecipientPolicy): Promise<{ port: number; connections: number; recipients: string[]; maxOpen: number; close(): Promise<void> }> {
  const state = { port: 0, connections: 0, recipients: [] as string[], maxOpen: 0, close: async () => undefined as void };
  let open = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    state.connections += 1;
    open += 1;
    state.maxOpen = Math.max(state.maxOpen, open);
    socket.on('close', () => { open -= 1; sockets.delete(socket); });
    socket.on('error', () => undefined);
    socket.setEncoding('latin1');
    socket.write('220 mx.test ESMTP\r\n');
    let buffered = '';
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-mx.test\r\n250 SIZE 1000000\r\n');
        else if (verb === 'MAIL') socket.write('250 2.1.0 Ok\r\n');
        else if (verb === 'RCPT') {
          const recipient = /<(.*)>/.exec(line)?.[1] ?? '';
          state.recipients.push(recipient);
          const reply = policy(recipient);
          if (reply !== 'silent') socket.write(`${reply} ${reply === 250 ? '2.1.5 Ok' : '5.1.1 User unknown'}\r\n`);
        } else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else socket.write('502 5.5.2 Error: command not recognized\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () => new Promise<void>((resolve) => { server.close(() => resolve()); for (const socket of sockets) socket.destroy(); });
  return state;
}
