import { defineService } from '@leadforge/kit/service';
import { contactRoutes } from './routes/contactRoutes.ts';
import { accountDataRoutes } from './routes/accountDataRoutes.ts';
import { consumeAccountDeletions } from './events/accountErasureConsumer.ts';
import { buildRuntime } from './runtime.ts';

/** The public contact form: robot-checked submissions, announced to the admin panel. */
export const contactService = defineService({
  name: 'contact',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  runtime: buildRuntime,
  routes: [contactRoutes, accountDataRoutes],
  start: [consumeAccountDeletions],
});

export default contactService;
