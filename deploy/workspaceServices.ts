import fs from 'node:fs';
import path from 'node:path';
import { SERVICES, type ServiceName } from '@leadforge/contracts';

export const REPO_ROOT = path.resolve(new URL('..', import.meta.url).pathname);

/**
 * The services that exist in this tree: `services/<name>/src/index.ts` (the libraries live in packages/).
 * Every cluster artifact (images, chart entries, checks) is derived from or checked against this list,
 * so a service that lands is covered without editing the checks.
 */
export function workspaceServices(root = REPO_ROOT): ServiceName[] {
  const found = fs.readdirSync(path.join(root, 'services'))
    .filter((dir) => fs.existsSync(path.join(root, 'services', dir, 'src', 'index.ts')));
  const unknown = found.filter((dir) => !(SERVICES as readonly string[]).includes(dir));
  if (unknown.length) throw new Error(`services/${unknown[0]} is not in SERVICES of packages/contracts/src/routes.ts`);
  return SERVICES.filter((name) => found.includes(name));
}
