import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The secrets production requires, generated on the first start and kept so a restart keeps sessions. */
export interface DistributedSecrets {
  INTERNAL_TOKEN: string;
  JWT_PRIVATE_KEY: string;
  AFFILIATE_REFERRAL_SECRET: string;
}

function generate(): DistributedSecrets {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    INTERNAL_TOKEN: crypto.randomBytes(32).toString('hex'),
    JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    AFFILIATE_REFERRAL_SECRET: crypto.randomBytes(32).toString('hex'),
  };
}

/**
 * `$DATA_DIR/secrets.json` (mode 0600): read, or written once. A value set in the environment wins,
 * as a cluster's Secret would.
 */
export function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv): DistributedSecrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<DistributedSecrets> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  const complete = { ...generate(), ...stored } as DistributedSecrets;
  if (Object.keys(stored).length !== Object.keys(complete).length) {
    fs.writeFileSync(file, `${JSON.stringify(complete, null, 2)}\n`, { mode: 0o600 });
  }
  return {
    INTERNAL_TOKEN: env.INTERNAL_TOKEN || complete.INTERNAL_TOKEN,
    JWT_PRIVATE_KEY: env.JWT_PRIVATE_KEY || complete.JWT_PRIVATE_KEY,
    AFFILIATE_REFERRAL_SECRET: env.AFFILIATE_REFERRAL_SECRET || complete.AFFILIATE_REFERRAL_SECRET,
  };
}
