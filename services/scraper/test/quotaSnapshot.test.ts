import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@leadforge/testing';
import { memoryProxyQuota } from '../src/outbound/proxyQuota.ts';
import { loadQuotaSnapshot, quotaSnapshotWriter } from '../src/outbound/quotaSnapshot.ts';
import { MIGRATIONS_DIR } from './support/replicas.ts';

describe('the proxy quota snapshot of a local install', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('scraper', MIGRATIONS_DIR, 'pglite');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('saves a change again after a failed save, with no further change to prompt it', async () => {
    const quota = memoryProxyQuota(100);
    let readsLeftToFail = 1;
    const remaining = quota.remaining.bind(quota);
    quota.remaining = async () => {
      if (readsLeftToFail-- > 0) throw new Error('quota store unavailable');
      return remaining();
    };
    const writer = quotaSnapshotWriter(database.db, pino({ level: 'silent' }), quota, 20);
    quota.onChange = writer.changed;
    try {
      await quota.set(42);
      await expect.poll(() => loadQuotaSnapshot(database.db), { timeout: 10_000 }).toEqual({ remaining: 42, limit: 42 });
      expect(readsLeftToFail).toBeLessThan(0);
    } finally {
      await writer.stop();
    }
  });
});
