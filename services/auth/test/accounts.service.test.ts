import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, readMailbox, waitFor, waitForMail, startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import type { RunningService } from '@leadforge/kit/service';
import { loadKitConfig } from '@leadforge/kit/config';
import pino from 'pino';
import authService from '../src/index.ts';
import { mailTransportFrom } from '@leadforge/kit/mail';
import { loadAuthConfig } from '../src/config.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const RESET_ANSWER = { status: 202, body: { message: 'If an account exists for this email, we have sent a link to reset its password. It works for one hour.' } };

function caller(url: () => string) {
  return async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${url()}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

const VERIFICATION_SUBJECT = /^Confirm your Leadforge email address$/;
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`accounts (reset, change password, profile) on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let svc: RunningService;
    let dataDir: string;
    let mailDir: string;
    const call = caller(() => svc.url);
    const register = async (email: string, password = 'secret123') =>
      (await call('POST', '/api/auth/register', { name: 'Grace Hopper', email, password })).body as { access_token: string; user: { id: string } };
    const resetLink = async (email: string) => {
      expect(await call('POST', '/api/auth/password-reset', { email })).toEqual(RESET_ANSWER);
      const mail = await waitForMail(mailDir, email.trim().toLowerCase(), /^Reset your Leadforge password$/);
      await fs.rm(mail.file);
      return mail;
    };

    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadforge-accounts-'));
      mailDir = path.join(dataDir, 'mail');
      svc = await startServiceForTest(authService, {
        kind,
        env: { DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:5999', ADMIN_EMAILS: 'Chief@Example.com', AUTH_PASSWORD_RESET_PER_EMAIL_PER_HOUR: '4', AUTH_PASSWORD_RESET_PER_IP_PER_HOUR: '100' },
      });
    });
    afterAll(async () => {
      await svc?.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    it('emails a single-use reset link; the reset sets the password and ends every earlier session', async () => {
      const { access_token: before } = await register('grace@example.com', 'old-password');
      expect((await call('GET', '/api/auth/me', undefined, before)).status).toBe(200);

      const mail = await resetLink('  Grace@Example.com ');
      expect(mail.to).toContain('grace@example.com');
      expect(mail.text).toContain('Hello Grace Hopper,');
      expect(mail.html).toContain('Choose a new password');
      const link = mail.links.find((l) => l.includes('/reset-password?token='))!;
      expect(link.startsWith('http://127.0.0.1:5999/reset-password?token=')).toBe(true);
      expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
      // Only the token's hash is stored.
      const stored = await svc.ctx.db('password_reset_tokens').select('token_hash');
      expect(JSON.stringify(stored)).not.toContain(tokenOf(link));

      const short = await call('POST', '/api/auth/password-reset/confirm', { token: tokenOf(link), password: '12345' });
      expect(short).toMatchObject({ status: 400, body: { detail: 'Password must be at least 6 characters long' } });

      const reset = await call('POST', '/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'new-password' });
      expect(reset).toEqual({ status: 200, body: { message: 'Your password has been reset. Please log in with your new password.', api_keys_revoked: 0 } });
      const again = await call('POST', '/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'third-password' });
      expect(again).toMatchObject({ status: 400, body: { detail: 'This password reset link is invalid or has expired; please ask for a new one' } });

      expect(await call('GET', '/api/auth/me', undefined, before)).toMatchObject({ status: 401, body: { code: 'session_ended' } });
      expect((await call('POST', '/api/auth/login', { email: 'grace@example.com', password: 'old-password' })).status).toBe(401);
      const login = await call('POST', '/api/auth/login', { email: 'grace@example.com', password: 'new-password' });
      expect(login.status).toBe(200);
      expect((await call('GET', '/api/auth/me', undefined, login.body.access_token)).status).toBe(200);

      const notice = await waitForMail(mailDir, 'grace@example.com', /^Your Leadforge password was reset$/);
      expect(notice.links).toContain('http://127.0.0.1:5999/forgot-password');
    });

    it('makes an ADMIN_EMAILS address admin only once its mailed verification link is opened', async () => {
      const { access_token: token } = await register('chief@example.com');
      const me = () => call('GET', '/api/auth/me', undefined, token);
      // Registering the address first proves nothing: still a user.
      expect((await me()).body.role).toBe('user');
      const mail = await waitForMail(mailDir, 'chief@example.com', VERIFICATION_SUBJECT);
      const link = mail.links.find((l) => l.startsWith('http://127.0.0.1:5999/verify-email?token='))!;
      expect(JSON.stringify(await svc.ctx.db('email_verification_tokens').select('token_hash'))).not.toContain(tokenOf(link));

      expect(await call('POST', '/api/auth/verify-email', { token: 'made-up' })).toMatchObject({ status: 400, body: { detail: 'This verification link is invalid or has expired' } });
      expect((await me()).body.role).toBe('user');
      expect(await call('POST', '/api/auth/verify-email', { token: tokenOf(link) }))
        .toMatchObject({ status: 200, body: { message: 'Your email address is verified. Your account is now an administrator.' } });
      // The same token keeps working: roles are read on every request.
      expect((await me()).body.role).toBe('admin');
      expect((await call('POST', '/api/auth/verify-email', { token: tokenOf(link) })).status).toBe(400);

      // Any other address is verified and stays a user.
      await register('plain-verify@example.com');
      const plain = await waitForMail(mailDir, 'plain-verify@example.com', VERIFICATION_SUBJECT);
      expect(await call('POST', '/api/auth/verify-email', { token: tokenOf(plain.links.find((l) => l.includes('/verify-email?token='))!) }))
        .toMatchObject({ status: 200, body: { message: 'Your email address is verified.' } });
    });

    it('refuses an expired verification link, saying so', async () => {
      await register('late-verify@example.com');
      const mail = await waitForMail(mailDir, 'late-verify@example.com', VERIFICATION_SUBJECT);
      await svc.ctx.db('email_verification_tokens').update({ expires_at: new Date(Date.now() - 1000) });
      expect(await call('POST', '/api/auth/verify-email', { token: tokenOf(mail.links.find((l) => l.includes('/verify-email?token='))!) }))
        .toMatchObject({ status: 400, body: { detail: 'This verification link is invalid or has expired: it worked for 48 hours' } });
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      await register('known@example.com');
      await waitForMail(mailDir, 'known@example.com', VERIFICATION_SUBJECT);
      const before = (await readMailbox(mailDir)).length;
      expect(await call('POST', '/api/auth/password-reset', { email: 'nobody@example.com' })).toEqual(RESET_ANSWER);
      // Both requests are handled after the reply; the known address's, asked after and with more to do
      // (a token, an email, a send), is done once its email is written: the unknown one is done by then.
      await resetLink('known@example.com');
      expect((await readMailbox(mailDir)).length).toBe(before);
      expect(await svc.ctx.db('kit_mail_outbox').where({ recipient: 'nobody@example.com' })).toEqual([]);
      const bad = await call('POST', '/api/auth/password-reset', { email: 'not-an-email' });
      expect(bad).toMatchObject({ status: 400, body: { detail: 'Please enter a valid email address' } });
    });

    it('invalidates a link by a newer request, and refuses an expired one', async () => {
      await register('newer@example.com');
      const first = tokenOf((await resetLink('newer@example.com')).links[0]);
      const second = tokenOf((await resetLink('newer@example.com')).links[0]);
      expect((await call('POST', '/api/auth/password-reset/confirm', { token: first, password: 'another-one' })).status).toBe(400);
      await svc.ctx.db('password_reset_tokens').update({ expires_at: new Date(Date.now() - 1000) });
      expect((await call('POST', '/api/auth/password-reset/confirm', { token: second, password: 'another-one' })).status).toBe(400);
      expect((await call('POST', '/api/auth/login', { email: 'newer@example.com', password: 'secret123' })).status).toBe(200);
    });

    it('rate-limits reset requests per email, whether or not the account exists', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await call('POST', '/api/auth/password-reset', { email: 'flood@example.com' })).status);
      expect(statuses).toEqual([202, 202, 202, 202, 429]);
    });

    it('changes the password with the current one, keeps this session and ends the others', async () => {
      const { access_token: other } = await register('change@example.com', 'first-pass');
      const login = await call('POST', '/api/auth/login', { email: 'change@example.com', password: 'first-pass' });
      const mine = login.body.access_token as string;

      const wrong = await call('POST', '/api/auth/password', { current_password: 'nope-nope', new_password: 'second-pass' }, mine);
      expect(wrong).toEqual({ status: 400, body: { detail: 'Your current password is incorrect', code: 'wrong_password' } });
      expect((await call('POST', '/api/auth/password', { current_password: 'first-pass', new_password: '123' }, mine)).body.detail)
        .toBe('Password must be at least 6 characters long');
      expect((await call('POST', '/api/auth/password', { current_password: 'first-pass', new_password: 'second-pass' })).status).toBe(401);

      const changed = await call('POST', '/api/auth/password', { current_password: 'first-pass', new_password: 'second-pass' }, mine);
      expect(changed.status).toBe(200);
      expect(changed.body.user.email).toBe('change@example.com');
      expect((await call('GET', '/api/auth/me', undefined, changed.body.access_token)).status).toBe(200);
      expect((await call('GET', '/api/auth/me', undefined, mine)).status).toBe(401);
      expect((await call('GET', '/api/auth/me', undefined, other)).status).toBe(401);
      expect((await call('POST', '/api/auth/login', { email: 'change@example.com', password: 'second-pass' })).status).toBe(200);

      const notice = await waitForMail(mailDir, 'change@example.com', /^Your Leadforge password was changed$/);
      expect(notice.text).toContain('changed from the account settings');
      // Sent emails keep who, what and when, not their text.
      const row = await svc.ctx.db('kit_mail_outbox').where({ recipient: 'change@example.com', kind: 'password-changed' }).first();
      expect(row).toMatchObject({ kind: 'password-changed', text_body: null, html_body: null });
      expect(row.sent_at).toBeTruthy();
    });

    it('a reset revokes every API key, a change too unless the user keeps them; the emails say how many', async () => {
      const { access_token: session } = await register('keys@example.com', 'first-pass');
      const newKey = async (token: string, name: string) => (await call('POST', '/api/api-keys', { name }, token)).body.key as string;
      const keyWorks = async (key: string) => (await fetch(`${svc.url}/api/auth/me`, { headers: { 'x-api-key': key } })).status === 200;

      // An attacker holding a session made two keys; the reset takes both away.
      const planted = [await newKey(session, 'planted one'), await newKey(session, 'planted two')];
      const reset = await call('POST', '/api/auth/password-reset/confirm', { token: tokenOf((await resetLink('keys@example.com')).links[0]), password: 'second-pass' });
      expect(reset).toEqual({ status: 200, body: { message: 'Your password has been reset. Please log in with your new password. 2 API keys were revoked.', api_keys_revoked: 2 } });
      for (const key of planted) expect(await keyWorks(key)).toBe(false);
      const resetNotice = await waitForMail(mailDir, 'keys@example.com', /^Your Leadforge password was reset$/);
      expect(resetNotice.text).toContain('2 API keys were revoked');
      await fs.rm(resetNotice.file);

      // A change revokes them by default...
      let token = (await call('POST', '/api/auth/login', { email: 'keys@example.com', password: 'second-pass' })).body.access_token as string;
      const ci = await newKey(token, 'CI');
      const changed = await call('POST', '/api/auth/password', { current_password: 'second-pass', new_password: 'third-pass' }, token);
      expect(changed).toMatchObject({ status: 200, body: { api_keys_revoked: 1, user: { email: 'keys@example.com' } } });
      expect(await keyWorks(ci)).toBe(false);
      const changeNotice = await waitForMail(mailDir, 'keys@example.com', /^Your Leadforge password was changed$/);
      expect(changeNotice.text).toContain('1 API key was revoked');
      await fs.rm(changeNotice.file);

      // ...and keeps them when asked.
      token = changed.body.access_token;
      const kept = await newKey(token, 'kept');
      const keeping = await call('POST', '/api/auth/password', { current_password: 'third-pass', new_password: 'fourth-pass', keep_api_keys: true }, token);
      expect(keeping).toMatchObject({ status: 200, body: { api_keys_revoked: 0 } });
      expect(await keyWorks(kept)).toBe(true);
      const keptNotice = await waitForMail(mailDir, 'keys@example.com', /^Your Leadforge password was changed$/);
      expect(keptNotice.text).toContain('No API key was revoked: you chose to keep your 1 API key.');
      expect((await call('POST', '/api/auth/password', { current_password: 'fourth-pass', new_password: 'fifth-pass', keep_api_keys: 'yes' }, keeping.body.access_token)).status).toBe(400);
    });

    it('deletes the account on the password: sessions end, the address is gone, the others are told; the address may register again without a grant', async () => {
      const { access_token, user } = await register('leaving@example.com', 'goodbye-1');
      expect((await call('POST', '/api/api-keys', { name: 'Leaving CRM sync' }, access_token)).status).toBe(201);
      const wrong = await call('DELETE', '/api/account', { password: 'nope-nope' }, access_token);
      expect(wrong).toEqual({ status: 400, body: { detail: 'Your password is incorrect', code: 'wrong_password' } });
      expect((await call('DELETE', '/api/account', {}, access_token)).status).toBe(400);
      const deleted = await call('DELETE', '/api/account', { password: 'goodbye-1' }, access_token);
      expect(deleted).toEqual({ status: 200, body: { message: 'Your account has been deleted.' } });

      expect((await call('GET', '/api/auth/me', undefined, access_token)).status).toBe(401);
      expect((await call('DELETE', '/api/account', { password: 'goodbye-1' }, access_token)).status).toBe(401);
      expect((await call('POST', '/api/auth/login', { email: 'leaving@example.com', password: 'goodbye-1' })).status).toBe(401);
      const row = await svc.ctx.db('users').where({ id: user.id }).first();
      expect(row).toMatchObject({ name: 'Deleted user', email: `deleted-${user.id}@deleted.invalid`, status: 'deleted' });
      expect(await svc.ctx.db('api_keys').where({ user_id: user.id })).toEqual([]);
      const event = await svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = 'account.deleted'").andWhereRaw("envelope->'data'->>'user_id' = ?", [user.id]).first();
      expect(event.envelope.data).toMatchObject({ user_id: user.id, email_sha256: crypto.createHash('sha256').update('leaving@example.com').digest('hex') });
      expect(JSON.stringify(event.envelope)).not.toContain('leaving@example.com');

      const goodbye = await waitForMail(mailDir, 'leaving@example.com', /^Your Leadforge account was deleted$/);
      expect(goodbye.text).toContain('remaining credits were forfeited');
      // Once the last email is sent, no table of auth holds the address.
      await expect.poll(async () => {
        const tables = ['users', 'kit_mail_outbox', 'withheld_signup_grants', 'password_reset_tokens', 'kit_outbox'];
        const dumps = await Promise.all(tables.map(async (t) => JSON.stringify(await svc.ctx.db(t).select())));
        return dumps.some((d) => d.toLowerCase().includes('leaving@example.com'));
      }, { timeout: 10_000 }).toBe(false);

      // The address registers again, a new account; billing is told to withhold a second signup grant.
      const again = await call('POST', '/api/auth/register', { name: 'Back Again', email: 'Leaving@example.com', password: 'secret123' });
      expect(again).toMatchObject({ status: 201, body: { user: { email: 'leaving@example.com', name: 'Back Again' } } });
      expect(again.body.user.id).not.toBe(user.id);
      const registered = await svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = 'user.registered'").andWhereRaw("envelope->'data'->>'user_id' = ?", [again.body.user.id]).first();
      expect(registered.envelope.data.signup_grant).toBe(false);
      const fresh = await call('POST', '/api/auth/register', { name: 'New Person', email: 'first-time@example.com', password: 'secret123' });
      const freshEvent = await svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = 'user.registered'").andWhereRaw("envelope->'data'->>'user_id' = ?", [fresh.body.user.id]).first();
      expect(freshEvent.envelope.data.signup_grant).toBeUndefined();
    });

    it('renames the signed-in user and announces it; keeps the search-ready email preference', async () => {
      const { access_token, user } = await register('rename@example.com');
      const renamed = await call('PATCH', '/api/auth/me', { name: '  Rear Admiral Hopper ' }, access_token);
      expect(renamed).toMatchObject({ status: 200, body: { name: 'Rear Admiral Hopper', email: 'rename@example.com', notify_search_ready: true } });
      expect((await call('PATCH', '/api/auth/me', { name: '   ' }, access_token)).body).toMatchObject({ detail: 'Please enter your name' });
      expect((await call('GET', '/api/auth/me', undefined, access_token)).body.name).toBe('Rear Admiral Hopper');
      const events = await svc.ctx.db('kit_outbox').whereRaw("envelope->>'type' = 'user.renamed'").andWhereRaw("envelope->'data'->>'user_id' = ?", [user.id]);
      expect(events.map((e) => e.envelope.data)).toEqual([{ user_id: user.id, name: 'Rear Admiral Hopper' }]);

      const off = await call('PATCH', '/api/auth/me', { notify_search_ready: false }, access_token);
      expect(off).toMatchObject({ status: 200, body: { name: 'Rear Admiral Hopper', notify_search_ready: false } });
      expect((await call('GET', '/api/auth/me', undefined, access_token)).body.notify_search_ready).toBe(false);
      expect((await call('PATCH', '/api/auth/me', { notify_search_ready: 'no' }, access_token)).status).toBe(400);
    });
  });
}

/**
 * A minimal SMTP server that turns away the first message with a temporary error, then takes them. It
 * greets no client until `open()`: until then nothing can be sent through it.
 */
function startSmtpStandIn() {
  const received: string[] = [];
  let refusals = 1;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    void opened.then(() => socket.write('220 stand-in ESMTP\r\n'));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-stand-in\r\n250 AUTH PLAIN\r\n');
        else if (verb === 'AUTH') socket.write('235 ok\r\n');
        else if (verb === 'MAIL') {
          if (refusals > 0) {
            refusals -= 1;
            socket.write('451 try again later\r\n');
          } else socket.write('250 ok\r\n');
        } else if (verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP') socket.write('250 ok\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('502 no\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise<{ port: number; received: string[]; open: () => void; close: () => void }>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as net.AddressInfo).port, received, open, close: () => server.close() }));
  });
}

describe('account emails through SMTP_URL', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;
  let svc: RunningService;
  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    svc = await startServiceForTest(authService, {
      kind: 'pglite',
      env: { SMTP_URL: `smtp://user:pass@127.0.0.1:${smtp.port}`, MAIL_FROM: 'Leadforge <hello@leadforge.test>', MAIL_RETRY_BASE_SECONDS: '1', PUBLIC_URL: 'http://127.0.0.1:5999' },
    });
  });
  afterAll(async () => {
    await svc?.stop();
    smtp?.close();
  });

  it('sends through the SMTP server, retrying after a temporary refusal without holding up the request', async () => {
    const call = caller(() => svc.url);
    await call('POST', '/api/auth/register', { name: 'Ada', email: 'smtp@example.com', password: 'secret123' });
    // Answered while the mail server has not even greeted: the request never waits for it.
    expect((await call('POST', '/api/auth/password-reset', { email: 'smtp@example.com' })).status).toBe(202);
    smtp.open();
    const resets = () => smtp.received.filter((m) => /^Subject: Reset your Leadforge password$/m.test(m));
    await waitFor(() => resets().length, { timeoutMs: 15_000, what: 'the reset email at the SMTP server' });
    expect(resets()).toHaveLength(1);
    expect(resets()[0]).toMatch(/^From: Leadforge <hello@leadforge\.test>$/m);
    expect(resets()[0]).toMatch(/multipart\/alternative/);
    // The registration's verification email and the reset went out; whichever came first was refused once.
    await waitFor(() => smtp.received.length, { until: (n) => n === 2, timeoutMs: 15_000, what: 'both emails at the SMTP server' });
    const rows = await waitFor(() => svc.ctx.db('kit_mail_outbox').where({ recipient: 'smtp@example.com' }), { until: (all) => all.every((r) => r.sent_at), what: 'both emails marked sent' });
    expect(rows.map((r) => r.kind).sort()).toEqual(['email-verification', 'password-reset']);
    for (const row of rows) expect(row).toMatchObject({ text_body: null, last_error: null });
    expect(rows.reduce((sum, r) => sum + r.attempts, 0)).toBe(3);
  });

  it('is required in production unless the labelled stand-ins run on loopback', () => {
    const production = { NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32), DATABASE_URL: 'postgres://127.0.0.1/x', PUBLIC_URL: 'https://leadforge.example.com' };
    const log = pino({ level: 'silent' });
    expect(() => loadAuthConfig(production, loadKitConfig('auth', production))).toThrow('SMTP_URL is required in production');
    const local = { ...production, PUBLIC_URL: 'http://127.0.0.1:8080', LEADFORGE_STAND_INS: 'true', DATA_DIR: os.tmpdir() };
    const kit = loadKitConfig('auth', local);
    expect(mailTransportFrom(loadAuthConfig(local, kit).mail, kit, log).describe).toMatch(/^\.eml files in /);
    expect(() => loadAuthConfig({ SMTP_URL: 'http://nope' }, loadKitConfig('auth', {}))).toThrow('SMTP_URL has a bad value');
  });
});
