import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/** What the loopback name server knows of a domain: its mail exchanges (none: the name does not exist). */
export type MailZone = (domain: string) => string[] | undefined;
/** The IPv4 addresses of a name (an MX host's), or undefined when the name has none. */
export type AddressZone = (name: string) => string[] | undefined;

const TYPE_A = 1;
const TYPE_MX = 15;
const CLASS_IN = 1;

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at] !== 0) {
    labels.push(message.subarray(at + 1, at + 1 + message[at]).toString('ascii'));
    at += 1 + message[at];
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

function encodeName(name: string): Buffer {
  return Buffer.concat([...name.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')])), Buffer.from([0])]);
}

/**
 * A name server on 127.0.0.1 for tests: answers MX questions from `zone` and A questions from
 * `hosts` (NXDOMAIN for names neither holds, an empty answer for other types), so the MX check and
 * the catch-all probe run through node's resolver without ever asking the real DNS.
 */
export async function startLoopbackDns(zone: MailZone, hosts: AddressZone = () => undefined): Promise<{ address: string; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    if (query.length < 12) return;
    const question = readName(query, 12);
    const type = query.readUInt16BE(question.end);
    const exchanges = zone(question.name);
    const addresses = hosts(question.name);
    const known = exchanges ?? addresses;
    const answers = type === TYPE_MX && exchanges ? exchanges : [];
    const addressAnswers = type === TYPE_A && addresses ? addresses : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length + addressAnswers.length, 6);
    const records = answers.map((exchange, priority) => {
      const data = Buffer.concat([Buffer.from([0, priority * 10]), encodeName(exchange)]);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0);
      fixed.writeUInt16BE(TYPE_MX, 2);
      fixed.writeUInt16BE(CLASS_IN, 4);
      fixed.writeUInt32BE(300, 6);
      fixed.writeUInt16BE(data.length, 10);
      return Buffer.concat([fixed, data]);
    });
    const addressRecords = addressAnswers.map((address) => {
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0);
      fixed.writeUInt16BE(TYPE_A, 2);
      fixed.writeUInt16BE(CLASS_IN, 4);
      fixed.writeUInt32BE(300, 6);
      fixed.writeUInt16BE(4, 10);
      return Buffer.concat([fixed, Buffer.from(address.split('.').map(Number))]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, question.end + 4), ...records, ...addressRecords]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
