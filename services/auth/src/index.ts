import type { ServiceDefinition } from '@leadforge/kit/service';
import { perService } from '@leadforge/kit/service';
import { startConsumer } from '@leadforge/kit/events';
import { TOPICS } from '@leadforge/contracts';
import { buildRuntime } from './runtime.ts';
import { publicRoutes } from './routes/publicRoutes.ts';
import { internalRoutes } from './routes/internalRoutes.ts';
import { accountRoutes } from './routes/accountRoutes.ts';
import { apiKeyRoutes } from './routes/apiKeyRoutes.ts';
import { apiDocsRoutes } from './routes/apiDocsRoutes.ts';
import { verifyApiKey } from './domain/apiKeys.ts';
import { startMailSender } from './mail/mailOutbox.ts';
import { startReceiptConsumer } from './events/receiptConsumer.ts';
import { startSearchReadyConsumer } from './events/searchReadyConsumer.ts';
import { findStanding, promoteAdmins } from './domain/users.ts';

const runtimeOf = perService(buildRuntime);

export const authService: ServiceDefinition = {
  name: 'auth',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,

  // Auth checks tokens with its own key and its own users table: no call to itself.
  authentication: (ctx) => ({
    resolveKey: async () => (await runtimeOf(ctx)).key.publicPem,
    lookupStanding: async (userId) => (await findStanding(ctx.db, userId)) ?? null,
    apiKeys: { verify: (key) => verifyApiKey(ctx.db, key) },
  }),

  async routes(app, ctx) {
    const rt = await runtimeOf(ctx);
    await publicRoutes(app, rt);
    await accountRoutes(app, rt);
    await apiKeyRoutes(app, rt);
    await apiDocsRoutes(app);
    await internalRoutes(app, rt);
  },

  async start(ctx) {
    const rt = await runtimeOf(ctx);
    const promoted = await promoteAdmins(ctx.db, rt.adminEmails);
    if (promoted.length) ctx.log.info({ promoted }, 'promoted ADMIN_EMAILS accounts to admin');
    const mailSender = startMailSender({ db: ctx.db, transport: rt.mail.transport, log: ctx.log, retryBaseMs: rt.mail.retryBaseMs });
    rt.mail.wake = mailSender.wake;
    if (rt.mail.transport.delivers) ctx.log.info({ mail: rt.mail.transport.describe }, 'account emails are sent through SMTP');
    else ctx.log.warn({ mail: rt.mail.transport.describe }, 'no SMTP_URL: account emails are written as .eml files, not sent');
    const subscription = await startConsumer({
      db: ctx.db,
      bus: ctx.bus,
      service: 'auth',
      group: 'auth.balances',
      topics: [TOPICS.billingCredits],
      logger: ctx.log,
      handlers: {
        'credits.changed': async (data: { user_id: string; balance: number }, _env, trx) => {
          await trx('last_seen_balances')
            .insert({ user_id: data.user_id, balance: data.balance, updated_at: trx.fn.now() })
            .onConflict('user_id')
            .merge();
        },
      },
    });
    const receipts = await startReceiptConsumer(ctx, mailSender.wake);
    const searchReady = await startSearchReadyConsumer(ctx, mailSender.wake);
    return async () => {
      await subscription.close();
      await receipts.close();
      await searchReady.close();
      await mailSender.stop();
    };
  },
};

export default authService;
