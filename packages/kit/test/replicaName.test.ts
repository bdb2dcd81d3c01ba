import { describe, expect, it } from 'vitest';
import { replicaName } from '../src/service/service.ts';

// A restarted replica must find its own leases (outbox relay, scraper jobs) under the same name, and
// two live processes must never share one.
describe('replicaName', () => {
  it('is the same across restarts on an embedded database, whatever port a start picks', () => {
    expect(replicaName({}, 41001)).toBe(replicaName({}, 52002));
  });

  it('is the host and port on a database server', () => {
    const url = 'postgres://127.0.0.1:5432/leads';
    expect(replicaName({ databaseUrl: url }, 8080)).toBe(replicaName({ databaseUrl: url }, 8080));
    expect(replicaName({ databaseUrl: url }, 8080)).not.toBe(replicaName({ databaseUrl: url }, 8081));
  });

  it('gives a port picked at listen time a name of its own', () => {
    const url = 'postgres://127.0.0.1:5432/leads';
    expect(replicaName({ databaseUrl: url }, 0)).not.toBe(replicaName({ databaseUrl: url }, 0));
  });
});
