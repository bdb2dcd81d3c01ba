// Reading variables from the environment, each error naming its variable. Its own module because both
// the kit's config and the bus's Kafka settings read through it, and the config reads the brokers.

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Configuration error: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** Reads one variable with a clear error naming it when it is missing or bad. */
export function readVar(env: NodeJS.ProcessEnv, name: string, opts: { required?: boolean; default?: string; pattern?: RegExp; hint?: string } = {}): string | undefined {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? opts.default : raw;
  if (value === undefined) {
    if (opts.required) throw new ConfigError(name, `is required${opts.hint ? ` (${opts.hint})` : ''}`);
    return undefined;
  }
  if (opts.pattern && !opts.pattern.test(value)) throw new ConfigError(name, `has a bad value "${value}"${opts.hint ? ` (${opts.hint})` : ''}`);
  return value;
}

export function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = readVar(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

export function readBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = readVar(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}
