import { defineService } from '@leadforge/kit/service';
import { actionRoutes } from './routes/actionRoutes.ts';
import { internalRoutes } from './routes/internalRoutes.ts';
import { parkedWorkRoutes } from './routes/parkedWorkRoutes.ts';
import { statsRoutes } from './routes/statsRoutes.ts';
import { adminConfigFrom, AdminVariables } from './config.ts';
import { buildRuntime } from './runtime.ts';

/** Admin: read models built from everyone's events, the admin API, and the audit log of admin actions. */
export const adminService = defineService({
  name: 'admin',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  // Its read models hold every user and the whole activity log: deep user pages were slower with 8 MB (bench/adminStats.ts).
  embeddedDatabase: { sharedBuffersMb: 32 },
  variables: AdminVariables,
  config: adminConfigFrom,
  runtime: buildRuntime,
  routes: [statsRoutes, actionRoutes, parkedWorkRoutes, internalRoutes],
  start: [({ feed }) => feed.start()],
});

export default adminService;
