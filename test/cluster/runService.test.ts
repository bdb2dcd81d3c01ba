import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createFreshPostgres, postgresConfigured } from '@leadforge/testing';
import { openDatabase } from '@leadforge/kit/db';
import { REPO_ROOT, workspaceServices } from '../../deploy/workspaceServices.ts';
import { loadDefinition, migrateOnly, parseInvocation, requireBrokersInProduction } from '../../packages/service-runner/src/runService.ts';

describe('the container entry point (packages/service-runner/src/runService.ts)', () => {
  it('reads the service from the argument or LEADFORGE_SERVICE, and refuses unknown names and options with a clear message', () => {
    expect(parseInvocation(['auth'], {})).toEqual({ service: 'auth', migrateOnly: false, ifDatabaseExists: false });
    expect(parseInvocation(['--migrate-only'], { LEADFORGE_SERVICE: 'billing' })).toEqual({ service: 'billing', migrateOnly: true, ifDatabaseExists: false });
    expect(parseInvocation(['leads', '--migrate-only', '--if-database-exists'], {})).toMatchObject({ migrateOnly: true, ifDatabaseExists: true });
    expect(() => parseInvocation(['leads', '--if-database-exists'], {})).toThrow('--if-database-exists goes with --migrate-only');
    expect(() => parseInvocation([], {})).toThrow(/Name the service to run: one of auth, billing/);
    expect(() => parseInvocation(['payments'], {})).toThrow('Unknown service "payments"');
    expect(() => parseInvocation(['auth', '--migrate'], {})).toThrow('Unknown option --migrate');
  });

  it('refuses to serve one service in production without Kafka brokers, naming the variable, with no stack trace', () => {
    expect(() => requireBrokersInProduction({ NODE_ENV: 'production' })).toThrow('Configuration error: KAFKA_BROKERS is required in production');
    expect(() => requireBrokersInProduction({ NODE_ENV: 'production', KAFKA_BROKERS: ' ' })).toThrow('KAFKA_BROKERS');
    expect(() => requireBrokersInProduction({ NODE_ENV: 'production', KAFKA_BROKERS: 'kafka:9092' })).not.toThrow();
    expect(() => requireBrokersInProduction({ NODE_ENV: 'development' })).not.toThrow();
    const refused = spawnSync(process.execPath, ['--import', 'tsx', 'packages/service-runner/src/runService.ts', 'contact'], {
      cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', KAFKA_BROKERS: '' },
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe('Configuration error: KAFKA_BROKERS is required in production: this process runs one service, and its events must reach the others');
  });

  it('loads every service of the workspace by name', async () => {
    for (const service of workspaceServices()) expect((await loadDefinition(service)).name).toBe(service);
  });

  it('runs as a process: --migrate-only migrates the service\'s database and exits 0; with --if-database-exists and no database yet it exits 0 untouched', () => {
    const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'packages/service-runner/src/runService.ts', ...args], {
      cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, DATA_DIR: ':memory:', DATABASE_URL: '', LOG_LEVEL: 'info' },
    });
    const migrated = run(['auth', '--migrate-only']);
    expect(migrated.status, migrated.stderr + migrated.stdout).toBe(0);
    expect(migrated.stdout).toContain('migrations applied');
    const noDatabase = spawnSync(process.execPath, ['--import', 'tsx', 'packages/service-runner/src/runService.ts', 'auth', '--migrate-only', '--if-database-exists'], {
      cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: '', AUTH_DATABASE_URL: '', LOG_LEVEL: 'info' },
    });
    expect(noDatabase.status, noDatabase.stderr + noDatabase.stdout).toBe(0);
    expect(noDatabase.stdout).toContain('no database configured yet');
  }, 150_000); // two processes that each load the service through tsx (up to 60 s each on a loaded machine)

  it.skipIf(!postgresConfigured)(`migrates every service's own Postgres database, twice at once like two replicas, then again as a no-op${postgresConfigured ? '' : ' (skipped: no PostgreSQL; apt-get install -y postgresql)'}`, async () => {
    for (const service of workspaceServices()) {
      const def = await loadDefinition(service);
      const fresh = await createFreshPostgres(`runservice_${service}`);
      try {
        const env = { NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32), [`${service.toUpperCase()}_DATABASE_URL`]: fresh.url };
        await Promise.all([migrateOnly(def, env), migrateOnly(def, env)]);
        await migrateOnly(def, env);
        const db = openDatabase({ service, url: fresh.url });
        const applied = await db('schema_migrations').count<{ count: number }[]>('* as count');
        await db.destroy();
        expect(Number(applied[0].count), service).toBeGreaterThan(0);
      } finally {
        await fresh.drop();
      }
    }
  }, 120_000);
});
