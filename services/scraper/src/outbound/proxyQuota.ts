import type { Redis } from 'ioredis';
import { DEFAULT_PROXY_QUOTA } from '@leadforge/contracts';

/**
 * The remaining proxied requests, shared by every replica. `take` is atomic: it never lets the
 * count go below zero, whatever the number of replicas taking at once.
 */
export interface ProxyQuota {
  /** Takes one request; false when none is left. */
  take(): Promise<boolean>;
  remaining(): Promise<number>;
  /** The quota an admin last set (the default until then): what `remaining` counts down from. */
  limit(): Promise<number>;
  /** An admin's new quota: both what is left and the limit become `requests`. */
  set(requests: number): Promise<void>;
  /** Called with the new value after every change (metrics, persistence). */
  onChange?: (remaining: number) => void;
}

/** One process's quota (local mode). The runtime saves its values so a restart keeps them. */
export function memoryProxyQuota(initial = DEFAULT_PROXY_QUOTA, initialLimit = initial): ProxyQuota {
  let left = initial;
  let limit = initialLimit;
  const quota: ProxyQuota = {
    async take() {
      if (left <= 0) return false;
      left -= 1;
      quota.onChange?.(left);
      return true;
    },
    async remaining() {
      return left;
    },
    async limit() {
      return limit;
    },
    async set(requests) {
      left = requests;
      limit = requests;
      quota.onChange?.(left);
    },
  };
  return quota;
}

// Starts a missing counter at the default, then takes one only while some are left; returns what
// is left after taking, or -1 when nothing was.
const TAKE_SCRIPT = `
local left = redis.call('GET', KEYS[1])
if not left then
  redis.call('SET', KEYS[1], ARGV[1])
  left = ARGV[1]
end
if tonumber(left) <= 0 then return -1 end
return redis.call('DECR', KEYS[1])`;

/**
 * The quota in Redis, shared by all replicas; a Lua script makes check-and-take one step. The limit
 * sits next to it (`<key>:limit`), missing like the counter until an admin sets one: the default.
 */
export function redisProxyQuota(redis: Redis, key: string): ProxyQuota {
  const limitKey = `${key}:limit`;
  const quota: ProxyQuota = {
    async take() {
      const left = Number(await redis.eval(TAKE_SCRIPT, 1, key, String(DEFAULT_PROXY_QUOTA)));
      if (left < 0) return false;
      quota.onChange?.(left);
      return true;
    },
    async remaining() {
      const value = await redis.get(key);
      return value === null ? DEFAULT_PROXY_QUOTA : Math.max(0, Number(value));
    },
    async limit() {
      const value = await redis.get(limitKey);
      return value === null ? DEFAULT_PROXY_QUOTA : Number(value);
    },
    async set(requests) {
      await redis.multi().set(key, String(requests)).set(limitKey, String(requests)).exec();
      quota.onChange?.(requests);
    },
  };
  return quota;
}
