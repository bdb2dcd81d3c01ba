import type { App } from '@leadforge/kit/service';
import { internalGuard } from '@leadforge/kit/http';
import type { AdminRuntime } from '../runtime.ts';

/** Operations' routes (service token only, never routed by the gateway). */
export async function internalRoutes(app: App, { ctx, feed }: AdminRuntime): Promise<void> {
  app.post('/internal/read-models/rebuild', { preHandler: internalGuard(ctx.config.internalToken) }, async () => {
    const group = await feed.rebuild();
    return { message: 'Read models emptied; replaying every retained event', consumer_group: group };
  });
}
