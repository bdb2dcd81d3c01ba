/**
 * Writes gateway/envoy/envoy.yaml from the route table (run after changing packages/contracts/src/routes.ts):
 *   node --import tsx gateway/envoy/generateEnvoyConfig.ts           write the file
 *   node --import tsx gateway/envoy/generateEnvoyConfig.ts --check   exit 1 when the committed file is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { envoyConfig } from '../src/envoyConfig.ts';

export const ENVOY_CONFIG_FILE = path.resolve(new URL('./envoy.yaml', import.meta.url).pathname);

export function renderEnvoyConfig(): string {
  const header = '# GENERATED from packages/contracts/src/routes.ts by gateway/envoy/generateEnvoyConfig.ts; do not edit.\n';
  return header + stringify(envoyConfig(), { lineWidth: 0, aliasDuplicateObjects: false });
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const rendered = renderEnvoyConfig();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(ENVOY_CONFIG_FILE) ? fs.readFileSync(ENVOY_CONFIG_FILE, 'utf8') : '';
    if (current !== rendered) {
      console.error('gateway/envoy/envoy.yaml is stale: run node --import tsx gateway/envoy/generateEnvoyConfig.ts');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(ENVOY_CONFIG_FILE, rendered);
    console.log(`wrote ${path.relative(process.cwd(), ENVOY_CONFIG_FILE)}`);
  }
}
