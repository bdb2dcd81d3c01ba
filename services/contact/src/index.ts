import type { ServiceDefinition } from '@leadforge/kit/service';
import { contactRoutes } from './routes/contactRoutes.ts';
import { accountDataRoutes } from './routes/accountDataRoutes.ts';
import { consumeAccountDeletions } from './events/accountErasureConsumer.ts';
import { buildRuntime } from './runtime.ts';

/** The public contact form: robot-checked submissions, announced to the admin panel. */
export const contactService: ServiceDefinition = {
  name: 'contact',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  async routes(app, ctx) {
    const rt = buildRuntime(ctx);
    await contactRoutes(app, rt);
    await accountDataRoutes(app, rt);
  },
  async start(ctx) {
    const subscription = await consumeAccountDeletions(ctx);
    return () => subscription.close();
  },
};

export default contactService;
