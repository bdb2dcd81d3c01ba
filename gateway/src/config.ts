import { Type } from 'typebox';
import { collectConfig, internalTokenOf, KitVariables, readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';

/** The gateway's own variables; it reads the kit's log level, internal token and shutdown timeout besides. */
export const GatewayVariables = Type.Object({
  WEB_DIST: Variable.string({
    description: 'the built web app (`npm run build`) that `npm start`\'s gateway and `start:distributed`\'s web server serve; without an `index.html` there, only `/api` is served',
    defaultText: '`web/dist` of the repository',
  }),
});

/** The kit's variables the gateway reads, as every service reads them. */
const GatewayKitVariables = Type.Pick(KitVariables, ['NODE_ENV', 'LOG_LEVEL', 'INTERNAL_TOKEN', 'SHUTDOWN_TIMEOUT_SECONDS']);

/** What the local gateway reads from the environment, checked once at start. */
export interface GatewayConfig {
  logLevel: string;
  /** The services' token (INTERNAL_TOKEN): the gateway calls auth with it and proves with it that a request came through here. */
  internalToken: string;
  shutdownTimeoutMs: number;
  /** WEB_DIST, when set. */
  webDist?: string;
}

export function gatewayConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems): GatewayConfig {
  const kit = readVariables(GatewayKitVariables, env, problems);
  const own = readVariables(GatewayVariables, env, problems);
  return {
    logLevel: kit.LOG_LEVEL ?? (kit.NODE_ENV === 'production' ? 'info' : 'warn'),
    internalToken: internalTokenOf(kit, problems),
    shutdownTimeoutMs: kit.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    webDist: own.WEB_DIST,
  };
}

/** The gateway's configuration; every problem thrown together (a ConfigError). */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return collectConfig((problems) => gatewayConfigFrom(env, problems));
}
