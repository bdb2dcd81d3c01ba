import type { AuthenticationOptions } from '../http/authentication.ts';
import { perService } from './perService.ts';
import type { App, ServiceContext, ServiceDefinition } from './service.ts';

/** What a service runs beside its routes until it stops: a consumer's subscription, a loop, a scheduler. */
export type Started = { close(): Promise<void> } | { stop(): Promise<void> };

/** Background work that starts when told (a work loop, a queue, a scheduler): started, and answered to be stopped with the service. */
export function running<T extends { start(): void; stop(): Promise<void> }>(work: T): T {
  work.start();
  return work;
}

export interface ServiceParts<R> extends Pick<ServiceDefinition, 'name' | 'migrationsDir' | 'embeddedDatabase'> {
  /** What the routes and the background work share (keys, clients, stores), built once per start. */
  runtime(ctx: ServiceContext): R | Promise<R>;
  /** Overrides how tokens are checked; `runtime` answers the runtime once it is built. */
  authentication?(ctx: ServiceContext, runtime: () => Promise<R>): Partial<AuthenticationOptions>;
  /** Each registers some of the service's routes, in this order. */
  routes: Array<(app: App, rt: R) => Promise<void> | void>;
  /**
   * Each starts a consumer or some background work (or does a one-off step, answering nothing), in
   * this order, once the server listens; what they started stops in the reverse order.
   */
  start?: Array<(rt: R) => Promise<Started | void> | Started | void>;
}

const stopOne = (started: Started): Promise<void> => ('close' in started ? started.close() : started.stop());

async function stopAll(started: Started[]): Promise<void> {
  for (const one of [...started].reverse()) await stopOne(one);
}

/**
 * A service's definition from its parts: the runtime built once per start and handed to each route
 * registration and each start, and a stop that ends what was started, last started first.
 */
export function defineService<R>(parts: ServiceParts<R>): ServiceDefinition & { runtimeOf(ctx: ServiceContext): Promise<R> } {
  const runtimeOf = perService(async (ctx: ServiceContext) => parts.runtime(ctx));
  const { authentication } = parts;
  return {
    name: parts.name,
    migrationsDir: parts.migrationsDir,
    embeddedDatabase: parts.embeddedDatabase,
    runtimeOf,
    ...(authentication ? { authentication: (ctx: ServiceContext) => authentication(ctx, () => runtimeOf(ctx)) } : {}),

    async routes(app, ctx) {
      const rt = await runtimeOf(ctx);
      for (const register of parts.routes) await register(app, rt);
    },

    async start(ctx) {
      const rt = await runtimeOf(ctx);
      const started: Started[] = [];
      try {
        for (const start of parts.start ?? []) {
          const one = await start(rt);
          if (one) started.push(one);
        }
      } catch (err) {
        // What did start is stopped, so a failed start leaves nothing running.
        await stopAll(started).catch(() => undefined);
        throw err;
      }
      return () => stopAll(started);
    },
  };
}
