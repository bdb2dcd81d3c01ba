import type { AuthenticationOptions } from '../http/authentication.ts';
import { perService } from './perService.ts';
import type { App, ServiceContext, ServiceDefinition } from './service.ts';
import type { ConfigProblems } from '../config/environment.ts';
import type { KitConfig } from '../config/kitConfig.ts';

/** What a service runs beside its routes until it stops: a consumer's subscription, a loop, a scheduler. */
export type Started = { close(): Promise<void> } | { stop(): Promise<void> };

/** Background work that starts when told (a work loop, a queue, a scheduler): started, and answered to be stopped with the service. */
export function running<T extends { start(): void; stop(): Promise<void> }>(work: T): T {
  work.start();
  return work;
}

export interface ServiceParts<R, C = undefined> extends Pick<ServiceDefinition, 'name' | 'migrationsDir' | 'embeddedDatabase' | 'variables' | 'queues'> {
  /**
   * Reads the service's own variables (its `config.ts` schema) with the kit's, once, before anything
   * starts: every problem is added to `problems`, and the start fails naming all of them together.
   */
  config?(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: KitConfig): C;
  /** What the routes and the background work share (keys, clients, stores), built once per start from the configuration read. */
  runtime(ctx: ServiceContext, config: C): R | Promise<R>;
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
export function defineService<R, C = undefined>(parts: ServiceParts<R, C>): ServiceDefinition & { runtimeOf(ctx: ServiceContext): Promise<R> } {
  // startService read the configuration with `parts.config` below, so it is this service's C.
  const runtimeOf = perService(async (ctx: ServiceContext) => parts.runtime(ctx, ctx.serviceConfig as C));
  const { authentication } = parts;
  return {
    name: parts.name,
    migrationsDir: parts.migrationsDir,
    embeddedDatabase: parts.embeddedDatabase,
    queues: parts.queues,
    ...(parts.config ? { config: parts.config, variables: parts.variables } : {}),
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
