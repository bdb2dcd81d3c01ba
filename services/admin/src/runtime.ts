import type { ServiceContext } from '@leadforge/kit/service';
import type { AdminConfig } from './config.ts';
import { adminActions, type AdminActions } from './domain/adminActions.ts';
import { ReadModelFeed } from './readModels/readModelFeed.ts';

/** What the admin service's routes and its read-model feed share, built once per start. */
export interface AdminRuntime {
  ctx: ServiceContext;
  feed: ReadModelFeed;
  actions: AdminActions;
}

export function buildRuntime(ctx: ServiceContext, config: AdminConfig): AdminRuntime {
  return { ctx, feed: new ReadModelFeed(ctx), actions: adminActions(ctx, { catchUpMs: config.catchUpMs }) };
}
