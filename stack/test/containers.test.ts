/**
 * What the container runtime of start:distributed hands a container: the product's variables but not
 * the host's own, the preloads NODE_OPTIONS names, and the image names `npm run images` tags. Running
 * the images is test/distributed/product.test.ts with LEADFORGE_RUNTIME=containers.
 */
import { describe, expect, it } from 'vitest';
import { containerEnv, imageOf, preloadMounts } from '../src/infrastructure/containers.ts';

describe('the container runtime', () => {
  it('gives a container the product\'s variables, not the host\'s PATH, HOME or npm\'s', () => {
    const env = containerEnv({
      PATH: '/usr/bin', HOME: '/root', LC_ALL: 'C', XDG_RUNTIME_DIR: '/run/user/0', CONTAINERS_CONF: '/x', npm_config_cache: '/c',
      NODE_ENV: 'production', KAFKA_BROKERS: '127.0.0.1:9092', AUTH_DATABASE_URL: 'postgres://h/auth', NODE_OPTIONS: '--import /p.mjs', UNSET: undefined,
    });
    expect(env).toEqual({ NODE_ENV: 'production', KAFKA_BROKERS: '127.0.0.1:9092', AUTH_DATABASE_URL: 'postgres://h/auth', NODE_OPTIONS: '--import /p.mjs' });
  });

  it('mounts each absolute preload of NODE_OPTIONS read-only at its own path, once', () => {
    expect(preloadMounts('--import /repo/a.mjs --max-old-space-size=512 --import=file:///repo/b.mjs --import /repo/a.mjs --import relative.mjs')).toEqual([
      { source: '/repo/a.mjs', target: '/repo/a.mjs', options: 'ro' },
      { source: '/repo/b.mjs', target: '/repo/b.mjs', options: 'ro' },
    ]);
    expect(preloadMounts(undefined)).toEqual([]);
  });

  it('names images as npm run images tags them', () => {
    expect(imageOf({}, 'auth')).toBe('leadforge/auth:dev');
    expect(imageOf({ IMAGE_PREFIX: 'registry.example.com/lf/', IMAGE_TAG: '1.2.0' }, 'web')).toBe('registry.example.com/lf/web:1.2.0');
  });
});
