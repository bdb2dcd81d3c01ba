import type {
  ContextConfigDefault, FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault,
  RouteGenericInterface, RouteHandlerMethod, RouteShorthandOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { RouteDeclaration, RouteSchemas } from '@leadforge/contracts';

/** A service's fastify instance: request and reply types come from each route's TypeBox schemas. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * The schemas the handler is typed by: a route that declares no success reply (a file, a stream, a
 * text written as it is) sends what it writes, so only its errors' schemas would type the reply.
 */
type TypedBy<S extends RouteSchemas> = S extends { response: infer R } ? (Extract<keyof R, SuccessStatus> extends never ? Omit<S, 'response'> : S) : S;

/** The handler of a declared route: `request.params`, `query`, `body` and the reply typed by its schemas. */
export type RouteHandler<S extends RouteSchemas> = RouteHandlerMethod<
  RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, TypedBy<S>, TypeBoxTypeProvider, FastifyBaseLogger
>;

/** What a service adds to a declared route: its own hooks (rate limits, trimming), a body limit. */
export type RouteOptions<S extends RouteSchemas> = Omit<RouteShorthandOptions<
  RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, TypedBy<S>, TypeBoxTypeProvider, FastifyBaseLogger
>, 'schema'>;

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Registers the handler of a route declared in contracts: its method, path and schemas come from the
 * declaration, and so does its access check (`requireUser`, `requireAdmin` or `requireInternal`; the API key rule is the
 * route table's). The check runs last of the route's onRequest hooks, before the body is read and
 * validated, so an anonymous or non-admin caller gets 401/403 whatever the body, as at the gateway.
 */
export function handle<S extends RouteSchemas>(app: App, route: RouteDeclaration<S>, handler: RouteHandler<S>): void;
export function handle<S extends RouteSchemas>(app: App, route: RouteDeclaration<S>, options: RouteOptions<S>, handler: RouteHandler<S>): void;
export function handle(app: App, route: RouteDeclaration, ...rest: [RouteHandler<RouteSchemas>] | [RouteOptions<RouteSchemas>, RouteHandler<RouteSchemas>]): void {
  const [options, handler] = rest.length === 1 ? [{}, rest[0]] : rest;
  const check = route.access === 'user' ? app.requireUser : route.access === 'admin' ? app.requireAdmin : route.access === 'internal' ? app.requireInternal : undefined;
  app.route<RouteGenericInterface, ContextConfigDefault, RouteSchemas>({
    ...options,
    method: route.method,
    url: route.path,
    schema: route.schema,
    ...(check ? { onRequest: [...asList(options.onRequest), check] } : {}),
    handler,
  });
}
