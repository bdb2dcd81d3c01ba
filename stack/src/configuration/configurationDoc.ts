/**
 * Writes docs/configuration.md from the variables' schemas: the kit's (every service), each service's
 * (its `config.ts`, declared on its definition), the gateway's and the launchers'. Run after changing a variable:
 *   npm run docs:config            write the file
 *   npm run docs:config -- --check exit 1 when the committed file is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TObject } from 'typebox';
import { KitVariables, serviceVariables, variablesOf, type VariableSchema } from '@leadforge/kit/config';
import { GatewayVariables } from '@leadforge/gateway';
import { SERVICE_DEFINITIONS } from '../services.ts';
import { LauncherVariables } from '../launcherVariables.ts';

export const CONFIGURATION_DOC = path.resolve(new URL('../../../docs/configuration.md', import.meta.url).pathname);

/** Every schema the product reads, in the order the page shows them. */
export function configurationSections(): { title: string; intro: string; schema: TObject }[] {
  return [
    { title: 'Every service', intro: 'Read by every service through the kit (`packages/kit/src/config/`).', schema: KitVariables },
    { title: 'Per service', intro: 'Each service reads these under its own name, e.g. `AUTH_URL`, `BILLING_DATABASE_URL`.', schema: serviceVariables('<service>') },
    ...SERVICE_DEFINITIONS.filter((def) => def.variables).map((def) => ({
      title: def.name, intro: `Read by the ${def.name} service (\`services/${def.name}/src/config.ts\`).`, schema: def.variables!,
    })),
    { title: 'Gateway', intro: 'Read by the local gateway (`gateway/src/config.ts`) besides the kit\'s `LOG_LEVEL`, `INTERNAL_TOKEN` and `SHUTDOWN_TIMEOUT_SECONDS`.', schema: GatewayVariables },
    { title: 'Launchers', intro: 'Read by `npm start` and `npm run start:distributed` (`stack/src/launcherVariables.ts`).', schema: LauncherVariables },
  ];
}

const code = (value: unknown) => `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;

function defaultOf(v: VariableSchema): string {
  if (v.defaultText !== undefined) return v.defaultText;
  if (v.default === undefined) return 'unset';
  if (v.default === '' || (Array.isArray(v.default) && v.default.length === 0)) return 'empty';
  return code(v.default);
}

function meaningOf(v: VariableSchema): string {
  const notes: string[] = [];
  if (v[`x-variable`] === 'integer' && (v.minimum !== 0 || v.maximum !== Number.MAX_SAFE_INTEGER)) {
    notes.push(v.maximum === Number.MAX_SAFE_INTEGER ? `at least ${v.minimum}` : `${v.minimum} to ${v.maximum}`);
  }
  if (v.choices) notes.push(`one of ${v.choices.map(code).join(', ')}`);
  if (v.production === true) notes.push('*required in production*');
  else if (v.production) notes.push(`*required in production* ${v.production}`);
  if (v.secret) notes.push('secret');
  return [v.description, ...notes].join('; ').replaceAll('|', '\\|');
}

/** The page, from the schemas. */
export function configurationDoc(): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from the variables\' schemas by `npm run docs:config`; edit the schemas, not this file. -->',
    '',
    'Every variable the product reads, with its local default; every one is optional in local mode. In',
    'production (`NODE_ENV=production`) the ones marked *required in production* must be set, or the',
    'service refuses to start, naming every variable that is missing or bad at once. *Secret* ones come',
    'only from a Kubernetes Secret in a cluster (the chart\'s `secretEnv`). How a missing provider is',
    'treated locally and in production: [architecture.md](architecture.md#configuration-and-tests); setting up the',
    'providers: [PayPal](billing.md#setting-up-paypal), [places sources](lead-engine.md#places-sources-and-coverage),',
    '[mail](accounts.md#email), [the robot check](affiliate-and-contact.md#the-robot-check).',
  ];
  for (const section of configurationSections()) {
    lines.push('', `## ${section.title}`, '', section.intro, '', '| variable | meaning | local default |', '|---|---|---|');
    for (const [name, v] of variablesOf(section.schema)) lines.push(`| \`${name}\` | ${meaningOf(v)} | ${defaultOf(v).replaceAll('|', '\\|')} |`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const page = configurationDoc();
  if (process.argv.includes('--check')) {
    const stale = fs.readFileSync(CONFIGURATION_DOC, 'utf8') !== page;
    if (stale) console.error('docs/configuration.md is stale: run npm run docs:config');
    process.exit(stale ? 1 : 0);
  }
  fs.writeFileSync(CONFIGURATION_DOC, page);
}
