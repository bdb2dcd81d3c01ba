import type { ServiceContext } from './service.ts';

/**
 * A value built once per running service (its runtime: keys, clients, stores) and shared by the
 * definition's `routes` and `start`, which the kit calls separately with the same context.
 */
export function perService<T>(build: (ctx: ServiceContext) => T): (ctx: ServiceContext) => T {
  const values = new WeakMap<ServiceContext, T>();
  return (ctx) => {
    if (!values.has(ctx)) values.set(ctx, build(ctx));
    return values.get(ctx) as T;
  };
}
