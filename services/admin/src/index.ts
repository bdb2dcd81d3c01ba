import type { ServiceDefinition } from '@leadforge/kit/service';
import { perService } from '@leadforge/kit/service';
import { readInt } from '@leadforge/kit/config';
import { adminActions } from './domain/adminActions.ts';
import { ReadModelFeed } from './events/readModelFeed.ts';
import { actionRoutes } from './routes/actionRoutes.ts';
import { internalRoutes } from './routes/internalRoutes.ts';
import { statsRoutes } from './routes/statsRoutes.ts';

const feedOf = perService((ctx) => new ReadModelFeed(ctx.db, ctx.bus, ctx.log));

/** Admin: read models built from everyone's events, the admin API, and the audit log of admin actions. */
export const adminService: ServiceDefinition = {
  name: 'admin',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  // Its read models hold every user and the whole activity log: deep user pages were slower with 8 MB (bench/adminStats.ts).
  embeddedDatabase: { sharedBuffersMb: 32 },

  async routes(app, ctx) {
    const catchUpMs = readInt(ctx.env, 'ADMIN_CATCH_UP_MS', 3000, 0, 60_000);
    await statsRoutes(app, ctx);
    await actionRoutes(app, ctx, adminActions(ctx, { catchUpMs }));
    await internalRoutes(app, ctx, feedOf(ctx));
  },

  async start(ctx) {
    const feed = feedOf(ctx);
    await feed.start();
    return () => feed.stop();
  },
};

export default adminService;
