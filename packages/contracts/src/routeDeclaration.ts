import type { TSchema } from 'typebox';
import { ErrorBody } from './api/common.ts';

export type ServiceName = 'auth' | 'billing' | 'leads' | 'scraper' | 'affiliate' | 'contact' | 'admin';
export const SERVICES: readonly ServiceName[] = ['auth', 'billing', 'leads', 'scraper', 'affiliate', 'contact', 'admin'];

/** `internal`: the service token only; such a route is never in the route table, so no gateway routes it. */
export type Access = 'public' | 'user' | 'admin' | 'internal';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a route goes and who may call it: what the gateways route and check at the edge. */
export interface RouteEntry {
  method: Method;
  /** Path with `:param` placeholders, as fastify writes them. */
  path: string;
  service: ServiceName;
  access: Access;
  /** Long-running or streaming routes get longer upstream timeouts. */
  streaming?: boolean;
  /**
   * A user route a machine may call with `X-API-Key` instead of a session (docs/public-api.md);
   * never set on admin routes, key management or payments.
   */
  apiKey?: boolean;
}

/**
 * What a route validates and answers with (TypeBox, i.e. JSON Schema): the owning service validates
 * requests and serializes replies with these, and the OpenAPI document is made of them.
 */
export interface RouteSchemas {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  /** By status code; a status not listed is answered without a schema. */
  response?: { readonly [status: number]: TSchema };
}

/** One route, declared once: the table's entry and its schemas. */
export interface RouteDeclaration<S extends RouteSchemas = RouteSchemas> extends RouteEntry {
  schema: S;
}

type Declared<T extends Omit<RouteDeclaration, 'service'>> = T & { service: ServiceName };

/** Declares a service's routes (each keeps its schemas' own types, so handlers get them). */
export function declareRoutes<const T extends Record<string, Omit<RouteDeclaration, 'service'>>>(service: ServiceName, routes: T): { [K in keyof T]: Declared<T[K]> } {
  return Object.fromEntries(Object.entries(routes).map(([name, route]) => [name, { ...route, service }])) as { [K in keyof T]: Declared<T[K]> };
}

/** The error answers a route lists: the same `{detail, code}` body for each status. */
export function errorReplies<const C extends number>(...statuses: C[]): Record<C, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody])) as Record<C, typeof ErrorBody>;
}
