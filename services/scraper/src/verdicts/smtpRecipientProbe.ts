import net from 'node:net';

/** One SMTP conversation: where to connect, who we say we are, and the recipients to ask about, in order. */
export interface RecipientProbe {
  address: string;
  port: number;
  heloName: string;
  /** The MAIL FROM address; '' is the null sender (<>), which sends no mail back to anyone. */
  sender: string;
  recipients: string[];
  /** After this recipient's reply, ask no more (a catch-all's answer makes the real address's moot). */
  stopAfter?: (reply: SmtpReply, index: number) => boolean;
  timeoutMs: number;
}

/** A server's reply: its code, the enhanced status code when it gave one ("5.1.1"), and its text. */
export interface SmtpReply {
  code: number;
  enhanced?: string;
  text: string;
}

/** How far the conversation got: `rcpt` means every recipient asked about was answered. */
export type ConversationEnd = 'rcpt' | 'connect' | 'greeting' | 'ehlo' | 'mail' | 'timeout' | 'closed';

export interface ConversationResult {
  end: ConversationEnd;
  /** The reply to RCPT TO of each recipient asked about, in order (fewer when stopped or cut off). */
  replies: SmtpReply[];
  /** The reply that ended a conversation refused before RCPT (the greeting, EHLO or MAIL FROM). */
  refusal?: SmtpReply;
}

// A reply longer than this is no mail server's; the conversation is dropped.
const MAX_REPLY_BYTES = 16 * 1024;
const REPLY_LINE = /^(\d{3})([ -])(.*)$/;
const ENHANCED = /^([245]\.\d{1,3}\.\d{1,3})\b/;

/**
 * Asks a mail server about recipients without sending mail: greeting, EHLO (HELO if EHLO is
 * refused), MAIL FROM, then RCPT TO for each recipient in turn, then QUIT. It never sends DATA, so
 * no message is ever delivered. `closed` settles once the connection is gone, so a caller can keep
 * to one connection per host.
 */
export function askRecipients(probe: RecipientProbe): { result: Promise<ConversationResult>; closed: Promise<void> } {
  const socket = net.connect({ host: probe.address, port: probe.port });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let connected = false;
  socket.once('connect', () => { connected = true; });
  const result = new Promise<ConversationResult>((resolve) => {
    const waiters: ((reply: SmtpReply | undefined) => void)[] = [];
    const replies: SmtpReply[] = [];
    const answers: SmtpReply[] = [];
    let lines: string[] = [];
    let buffered = '';
    let finished = false;
    let timedOut = false;
    const finish = (end: ConversationEnd, refusal?: SmtpReply) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolve({ end: timedOut ? 'timeout' : !connected && end === 'closed' ? 'connect' : end, replies: answers, ...(refusal ? { refusal } : {}) });
      for (const waiter of waiters.splice(0)) waiter(undefined);
    };
    const timer = setTimeout(() => { timedOut = true; finish('timeout'); socket.destroy(); }, probe.timeoutMs);
    const nextReply = () => new Promise<SmtpReply | undefined>((give) => {
      if (replies.length) give(replies.shift());
      else if (finished || socket.destroyed) give(undefined);
      else waiters.push(give);
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_REPLY_BYTES) { finish('closed'); socket.destroy(); return; }
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end).replace(/\r$/, '');
        buffered = buffered.slice(end + 1);
        const parts = REPLY_LINE.exec(line) ?? /^(\d{3})()$/.exec(line);
        if (!parts) continue;
        lines.push(parts[3] ?? '');
        if (parts[2] === '-') continue;
        const text = lines.join(' ').trim();
        lines = [];
        const reply: SmtpReply = { code: Number(parts[1]), text, ...(ENHANCED.test(text) ? { enhanced: ENHANCED.exec(text)![1] } : {}) };
        const waiter = waiters.shift();
        if (waiter) waiter(reply);
        else replies.push(reply);
      }
    });
    socket.on('error', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    const say = (line: string) => { if (!socket.destroyed) socket.write(`${line}\r\n`); };
    void (async (): Promise<[ConversationEnd, SmtpReply?]> => {
      const greeting = await nextReply();
      if (!greeting) return ['closed'];
      if (greeting.code !== 220) return ['greeting', greeting];
      say(`EHLO ${probe.heloName}`);
      let hello = await nextReply();
      if (hello && hello.code >= 500) {
        say(`HELO ${probe.heloName}`);
        hello = await nextReply();
      }
      if (!hello) return ['closed'];
      if (hello.code !== 250) return ['ehlo', hello];
      say(`MAIL FROM:<${probe.sender}>`);
      const mail = await nextReply();
      if (!mail) return ['closed'];
      if (mail.code !== 250) return ['mail', mail];
      for (const [index, recipient] of probe.recipients.entries()) {
        say(`RCPT TO:<${recipient}>`);
        const reply = await nextReply();
        if (!reply) return ['closed'];
        answers.push(reply);
        if (probe.stopAfter?.(reply, index)) break;
      }
      return ['rcpt'];
    })().then(([end, refusal]) => {
      finish(end, refusal);
      say('QUIT');
      // Give the server a moment to answer QUIT, then close either way.
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  });
  return { result, closed };
}
