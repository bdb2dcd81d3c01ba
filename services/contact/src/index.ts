import { defineService } from '@leadforge/kit/service';
import { contactRoutes } from './routes/contactRoutes.ts';
import { accountDataRoutes } from './routes/accountDataRoutes.ts';
import { consumeAccountDeletions } from './events/accountErasureConsumer.ts';
import { contactConfigFrom, ContactVariables } from './config.ts';
import { buildRuntime } from './runtime.ts';

/** The public contact form: robot-checked submissions, announced to the admin panel. */
export const contactService = defineService({
  name: 'contact',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  variables: ContactVariables,
  config: contactConfigFrom,
  runtime: buildRuntime,
  routes: [contactRoutes, accountDataRoutes],
  start: [consumeAccountDeletions],
});

export default contactService;
