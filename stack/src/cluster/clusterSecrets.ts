/**
 * The secrets of a local cluster's servers, made once per data folder and kept there: a password per
 * service's database role and Redis's. The chart's Secret carries them to the pods as
 * `<SERVICE>_DATABASE_URL` and `REDIS_URL`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SERVICES } from '@leadforge/contracts';

export interface BackingSecrets {
  databasePasswords: Record<string, string>;
  redisPassword: string;
}

export function backingSecrets(dataDir: string): BackingSecrets {
  const file = path.join(dataDir, 'secrets.json');
  const known: Partial<BackingSecrets> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const databasePasswords = { ...known.databasePasswords };
  for (const service of SERVICES) databasePasswords[service] ??= crypto.randomBytes(18).toString('base64url');
  const secrets = { databasePasswords, redisPassword: known.redisPassword ?? crypto.randomBytes(18).toString('base64url') };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
