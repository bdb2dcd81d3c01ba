import type { ServiceDefinition } from '@leadforge/kit';
import { contactRoutes } from './routes/contactRoutes.ts';
import { buildRuntime } from './runtime.ts';

/** The public contact form: robot-checked submissions, announced to the admin panel. */
export const contactService: ServiceDefinition = {
  name: 'contact',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  async routes(app, ctx) {
    await contactRoutes(app, buildRuntime(ctx));
  },
};

export default contactService;
