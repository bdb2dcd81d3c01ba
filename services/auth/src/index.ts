import { defineService } from '@leadforge/kit/service';
import { authConfigFrom, AuthVariables } from './config.ts';
import { buildRuntime, promoteConfiguredAdmins, startMailSending } from './runtime.ts';
import { publicRoutes } from './routes/publicRoutes.ts';
import { internalRoutes } from './routes/internalRoutes.ts';
import { accountRoutes } from './routes/accountRoutes.ts';
import { apiKeyRoutes } from './routes/apiKeyRoutes.ts';
import { apiDocsRoutes } from './routes/apiDocsRoutes.ts';
import { verifyApiKey } from './domain/apiKeys.ts';
import { findStanding } from './domain/users.ts';
import { startBalanceConsumer } from './events/balanceConsumer.ts';
import { MAIL_QUEUE } from './mail/mailOutbox.ts';
import { startReceiptConsumer } from './events/receiptConsumer.ts';
import { startSearchReadyConsumer } from './events/searchReadyConsumer.ts';
import { startOptOutMailConsumer } from './events/optOutMailConsumer.ts';

export const authService = defineService({
  name: 'auth',
  queues: [MAIL_QUEUE],
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  variables: AuthVariables,
  config: authConfigFrom,
  runtime: buildRuntime,

  // Auth checks tokens with its own key and its own users table: no call to itself.
  authentication: (ctx, runtime) => ({
    resolveKey: async () => (await runtime()).key.publicPem,
    lookupStanding: async (userId) => (await findStanding(ctx.db, userId)) ?? null,
    apiKeys: { verify: (key) => verifyApiKey(ctx.db, key) },
  }),

  routes: [publicRoutes, accountRoutes, apiKeyRoutes, apiDocsRoutes, internalRoutes],
  start: [promoteConfiguredAdmins, startMailSending, startBalanceConsumer, startReceiptConsumer, startSearchReadyConsumer, startOptOutMailConsumer],
});

export default authService;
