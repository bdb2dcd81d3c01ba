import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import { handle, principalOf, notFound, rateLimited } from '@leadforge/kit/http';
import { AUTH_ROUTES } from '@leadforge/contracts';
import { authenticateUser, findUser, registerUser } from '../domain/users.ts';
import { normaliseEmail } from '../domain/emailAddress.ts';
import { verifyEmail } from '../domain/emailVerification.ts';
import { sessionReplies } from './sessionReplies.ts';
import type { AuthRuntime } from '../runtime.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Users paste emails with stray spaces; trim before the format check. */
export async function trimEmail(request: FastifyRequest) {
  const body: unknown = request.body;
  if (body && typeof body === 'object' && 'email' in body && typeof body.email === 'string') body.email = body.email.trim();
}

export async function publicRoutes(app: App, rt: AuthRuntime): Promise<void> {
  const { toUser, session } = sessionReplies(rt);

  handle(app, AUTH_ROUTES.register, {
    preValidation: trimEmail,
    preHandler: rateLimited(rt.ctx.counters, { name: 'register-ip', max: rt.limits.registerPerIpPerHour, windowMs: HOUR }),
  }, async (request, reply) => {
    const user = await registerUser(rt.ctx.db, request.body, rt.mail, request.ip);
    rt.ctx.relay.wake();
    rt.mail.wake();
    return reply.status(201).send(await session(user));
  });

  handle(app, AUTH_ROUTES.login, {
    preValidation: trimEmail,
    preHandler: rateLimited(rt.ctx.counters,
      { name: 'login-ip', max: rt.limits.loginPerIpPerMinute, windowMs: MINUTE },
      { name: 'login-email', max: rt.limits.loginPerEmailPer15Minutes, windowMs: 15 * MINUTE, key: (request) => normaliseEmail(request.body.email) },
    ),
  }, async (request) => {
    const { email, password } = request.body;
    return session(await authenticateUser(rt.ctx.db, email, password));
  });

  handle(app, AUTH_ROUTES.verifyEmail, {
    preHandler: rateLimited(rt.ctx.counters, { name: 'verify-email-ip', max: rt.limits.resetPerIpPerHour, windowMs: HOUR }),
  }, async (request) => {
    const { promoted } = await verifyEmail(rt.ctx.db, request.body.token, rt.adminEmails);
    if (promoted) rt.ctx.relay.wake();
    return { message: promoted ? 'Your email address is verified. Your account is now an administrator.' : 'Your email address is verified.' };
  });

  handle(app, AUTH_ROUTES.me, async (request) => {
    const row = await findUser(rt.ctx.db, principalOf(request).id);
    if (!row) throw notFound('User not found');
    return toUser(row);
  });

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { keys: [rt.key.publicJwk] };
  });
}
