import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import { principalOf, notFound, rateLimited } from '@leadforge/kit/http';
import { ErrorBody, LoginRequest, RegisterRequest, SessionResponse, User } from '@leadforge/contracts';
import { authenticateUser, findUser, registerUser } from '../domain/users.ts';
import { normaliseEmail } from '../domain/emailAddress.ts';
import { sessionReplies } from './sessionReplies.ts';
import type { AuthRuntime } from '../runtime.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Users paste emails with stray spaces; trim before the format check. */
export async function trimEmail(request: FastifyRequest) {
  const body = request.body as { email?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.email === 'string') body.email = body.email.trim();
}

export async function publicRoutes(app: App, rt: AuthRuntime): Promise<void> {
  const { toUser, session } = sessionReplies(rt);

  const errors = { 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody };

  app.post('/api/auth/register', {
    schema: { body: RegisterRequest, response: { 201: SessionResponse, ...errors } },
    preValidation: trimEmail,
    preHandler: rateLimited(rt.ctx.counters, { name: 'register-ip', max: rt.limits.registerPerIpPerHour, windowMs: HOUR }),
  }, async (request, reply) => {
    const user = await registerUser(rt.ctx.db, request.body as RegisterRequest, rt.adminEmails);
    rt.ctx.relay.wake();
    return reply.status(201).send(await session(user));
  });

  app.post('/api/auth/login', {
    schema: { body: LoginRequest, response: { 200: SessionResponse, ...errors } },
    preValidation: trimEmail,
    preHandler: rateLimited(rt.ctx.counters,
      { name: 'login-ip', max: rt.limits.loginPerIpPerMinute, windowMs: MINUTE },
      { name: 'login-email', max: rt.limits.loginPerEmailPer15Minutes, windowMs: 15 * MINUTE, key: (request) => normaliseEmail((request.body as LoginRequest).email) },
    ),
  }, async (request) => {
    const { email, password } = request.body as LoginRequest;
    return session(await authenticateUser(rt.ctx.db, email, password));
  });

  app.get('/api/auth/me', {
    schema: { response: { 200: User, 401: ErrorBody } },
    preHandler: app.requireUser,
  }, async (request) => {
    const row = await findUser(rt.ctx.db, principalOf(request).id);
    if (!row) throw notFound('User not found');
    return toUser(row);
  });

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { keys: [rt.key.publicJwk] };
  });
}
