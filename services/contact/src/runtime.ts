import type { ServiceContext } from '@leadforge/kit/service';
import { loadRobotCheckConfig, type ContactConfig, type RobotCheckConfig } from './config.ts';
import { localTestVerifier, siteVerify, type TokenVerifier } from './domain/robotCheck.ts';

export interface RobotCheck {
  provider: 'google' | 'local';
  siteKey: string;
  testMode: boolean;
  verifier: TokenVerifier;
}

/** What the contact service's routes share, built once per start. */
export interface ContactRuntime {
  ctx: ServiceContext;
  robotCheck: RobotCheck;
  limits: { perIpPerHour: number };
}

export function buildRuntime(ctx: ServiceContext, config: ContactConfig): ContactRuntime {
  return { ctx, robotCheck: robotCheckOf(config.robotCheck), limits: config.limits };
}

function robotCheckOf(config: RobotCheckConfig): RobotCheck {
  if (config.provider === 'local') return { provider: 'local', siteKey: '', testMode: true, verifier: localTestVerifier(config.hostname) };
  const { siteKey, secret, testMode, url, expectedHostnames } = config;
  return { provider: 'google', siteKey, testMode, verifier: siteVerify({ url, secret, expectedHostnames }) };
}

/** The robot check the environment configures (see loadRobotCheckConfig). */
export function robotCheckFrom(env: NodeJS.ProcessEnv, production: boolean, publicUrl: string): RobotCheck {
  return robotCheckOf(loadRobotCheckConfig(env, production, publicUrl));
}
