import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startLoopbackDns } from '../../services/scraper/test/support/loopbackDns.ts';

/**
 * How a domain's mail server answers RCPT TO: `mailbox` takes the listed mailboxes and refuses
 * others (550 5.1.1); `accept_all` takes anything; `greylist_once` says 451 the first time it sees a
 * recipient, then behaves as `mailbox`; `tempfail` says 452 4.3.1 to every recipient; `slow` greets
 * only after `slowMs` (past the product's timeout); `disconnect` hangs up after MAIL FROM.
 */
export type MailBehaviour = 'mailbox' | 'accept_all' | 'greylist_once' | 'tempfail' | 'slow' | 'disconnect';
export const MAIL_BEHAVIOURS: readonly MailBehaviour[] = ['mailbox', 'accept_all', 'greylist_once', 'tempfail', 'slow', 'disconnect'];

export interface MailDomain {
  behaviour: MailBehaviour;
  /** Local parts that exist (`mailbox`, `greylist_once`). */
  mailboxes?: string[];
  /** No MX record, only an address record: mail goes to the domain itself (RFC 5321's fallback). */
  addressOnly?: boolean;
}

export interface MailWorld {
  /** The name server, "127.0.0.1:port": the product's EMAIL_MX_RESOLVER. */
  dns: string;
  /** The port every mail server listens on (each on its own loopback address): EMAIL_SMTP_PROBE_PORT. */
  port: number;
  /** Each SMTP connection: the mail host's address and when it came. */
  connections: { host: string; at: number }[];
  /** Every RCPT TO the servers saw. */
  recipients: string[];
  /** The product's settings for this world (the timeouts short, no pause between probes). */
  env(overrides?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** The loopback address of a behaviour's mail server (127.0.0.0/8 is all loopback on Linux). */
const hostAddress = (behaviour: MailBehaviour): string => `127.0.0.${10 + MAIL_BEHAVIOURS.indexOf(behaviour)}`;
const hostName = (behaviour: MailBehaviour): string => `mx-${behaviour.replace('_', '-')}.mail.test`;

/**
 * A mail world on loopback for tests and benchmarks: a name server answering MX and A questions
 * for the world's domains (`world(domain)`; unknown domains do not exist), and one SMTP stand-in
 * per behaviour, each on its own loopback address and the one port. Nothing reaches the internet.
 */
export async function startMailWorld(world: (domain: string) => MailDomain | undefined, options: { slowMs?: number } = {}): Promise<MailWorld> {
  const slowMs = options.slowMs ?? 3000;
  const connections: MailWorld['connections'] = [];
  const recipients: string[] = [];
  const greylisted = new Set<string>();
  const sockets = new Set<net.Socket>();

  const exists = (recipient: string): boolean => {
    const at = recipient.lastIndexOf('@');
    return world(recipient.slice(at + 1).toLowerCase())?.mailboxes?.includes(recipient.slice(0, at).toLowerCase()) ?? false;
  };

  const serve = (behaviour: MailBehaviour) => (socket: net.Socket) => {
    sockets.add(socket);
    connections.push({ host: hostName(behaviour), at: Date.now() });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('latin1');
    const greet = () => { if (!socket.destroyed) socket.write(`220 ${hostName(behaviour)} ESMTP\r\n`); };
    if (behaviour === 'slow') setTimeout(greet, slowMs).unref();
    else greet();
    let buffered = '';
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write(`250-${hostName(behaviour)}\r\n250 SIZE 1000000\r\n`);
        else if (verb === 'MAIL') {
          if (behaviour === 'disconnect') { socket.destroy(); return; }
          socket.write('250 2.1.0 Ok\r\n');
        } else if (verb === 'RCPT') {
          const recipient = (/<(.*)>/.exec(line)?.[1] ?? '').toLowerCase();
          recipients.push(recipient);
          if (behaviour === 'accept_all') socket.write('250 2.1.5 Ok\r\n');
          else if (behaviour === 'tempfail') socket.write('452 4.3.1 Insufficient system storage\r\n');
          else if (behaviour === 'greylist_once' && !greylisted.has(recipient)) {
            greylisted.add(recipient);
            socket.write('451 4.7.1 Greylisted, please try again later\r\n');
          } else socket.write(exists(recipient) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 <' + recipient + '>: Recipient address rejected: User unknown\r\n');
        } else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else if (verb === 'DATA') socket.write('554 5.5.1 Error: no valid recipients\r\n');
        else socket.write('502 5.5.2 Error: command not recognized\r\n');
      }
    });
  };

  // One port on every behaviour's address: the first server picks it, the others take the same.
  let servers: net.Server[] = [];
  let port = 0;
  for (let attempt = 0; attempt < 5 && !servers.length; attempt++) {
    const started: net.Server[] = [];
    try {
      for (const behaviour of MAIL_BEHAVIOURS) {
        const server = net.createServer(serve(behaviour));
        await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, hostAddress(behaviour), resolve); });
        started.push(server);
        port = (server.address() as AddressInfo).port;
      }
      servers = started;
    } catch {
      await Promise.all(started.map((server) => new Promise((resolve) => server.close(resolve))));
      port = 0;
    }
  }
  if (!servers.length) throw new Error('could not start the mail world\'s servers on one port');

  const byName = new Map(MAIL_BEHAVIOURS.map((behaviour) => [hostName(behaviour), hostAddress(behaviour)]));
  const dns = await startLoopbackDns(
    (domain) => {
      const mail = world(domain);
      return mail && !mail.addressOnly ? [hostName(mail.behaviour)] : undefined;
    },
    (name) => {
      const host = byName.get(name);
      if (host) return [host];
      const mail = world(name);
      return mail?.addressOnly ? [hostAddress(mail.behaviour)] : undefined;
    },
  );

  return {
    dns: dns.address,
    port,
    connections,
    recipients,
    env: (overrides = {}) => ({
      EMAIL_MX_CHECK: 'true',
      EMAIL_MX_RESOLVER: dns.address,
      EMAIL_MX_TIMEOUT_MS: '2000',
      EMAIL_SMTP_CHECK: 'true',
      EMAIL_SMTP_PROBE_PORT: String(port),
      EMAIL_SMTP_PROBE_TIMEOUT_MS: String(Math.max(200, Math.floor(slowMs / 3))),
      EMAIL_SMTP_PROBE_HELO: 'verify.leadforge.test',
      EMAIL_SMTP_GREYLIST_RETRY_MS: '50',
      EMAIL_SMTP_MX_INTERVAL_MS: '0',
      ...overrides,
    }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      await dns.close();
    },
  };
}
