import net from 'node:net';

/** One SMTP conversation: where to connect, who we say we are, and the recipient to ask about. */
export interface RecipientProbe {
  address: string;
  port: number;
  heloName: string;
  /** The MAIL FROM address; '' is the null sender (<>), which sends no mail back to anyone. */
  sender: string;
  recipient: string;
  timeoutMs: number;
}

// A reply longer than this is no mail server's; the conversation is dropped.
const MAX_REPLY_BYTES = 16 * 1024;
const REPLY_END = /^(\d{3})(?: .*)?$/;

/**
 * The server's reply code to RCPT TO for the recipient, or undefined when the conversation did not
 * get that far (refused, closed, timed out, a greeting or EHLO/MAIL FROM not accepted). It never
 * sends DATA, so no message is ever delivered; it says QUIT before closing. `closed` settles once the
 * connection is gone, so a caller can keep to one connection per host.
 */
export function recipientReplyCode(probe: RecipientProbe): { code: Promise<number | undefined>; closed: Promise<void> } {
  const socket = net.connect({ host: probe.address, port: probe.port });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const code = new Promise<number | undefined>((resolve) => {
    const waiters: ((code: number | undefined) => void)[] = [];
    const replies: number[] = [];
    let buffered = '';
    let finished = false;
    const finish = (code: number | undefined) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolve(code);
      for (const waiter of waiters.splice(0)) waiter(undefined);
    };
    const timer = setTimeout(() => { finish(undefined); socket.destroy(); }, probe.timeoutMs);
    const nextReply = () => new Promise<number | undefined>((give) => {
      if (replies.length) give(replies.shift());
      else if (finished || socket.destroyed) give(undefined);
      else waiters.push(give);
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_REPLY_BYTES) { finish(undefined); socket.destroy(); return; }
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end).replace(/\r$/, '');
        buffered = buffered.slice(end + 1);
        const last = REPLY_END.exec(line);
        if (!last) continue;
        const code = Number(last[1]);
        const waiter = waiters.shift();
        if (waiter) waiter(code);
        else replies.push(code);
      }
    });
    socket.on('error', () => finish(undefined));
    socket.on('close', () => finish(undefined));
    const say = (line: string) => { if (!socket.destroyed) socket.write(`${line}\r\n`); };
    void (async () => {
      if ((await nextReply()) !== 220) return;
      say(`EHLO ${probe.heloName}`);
      let code = await nextReply();
      if (code !== undefined && code >= 500) {
        say(`HELO ${probe.heloName}`);
        code = await nextReply();
      }
      if (code !== 250) return;
      say(`MAIL FROM:<${probe.sender}>`);
      if ((await nextReply()) !== 250) return;
      say(`RCPT TO:<${probe.recipient}>`);
      return nextReply();
    })().then((code) => {
      finish(code);
      say('QUIT');
      // Give the server a moment to answer QUIT, then close either way.
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  });
  return { code, closed };
}
