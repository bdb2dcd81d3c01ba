/**
 * Writes packages/contracts/src/openapi/openapi.json (served at /api/openapi.json) from the route
 * declarations, the same ones the services register their handlers and schemas with; run after
 * changing a route or its schemas:
 *   node --import tsx stack/src/openapi/generateOpenApi.ts           write the file
 *   node --import tsx stack/src/openapi/generateOpenApi.ts --check   exit 1 when the committed file is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '@leadforge/contracts/openapi/openApiDocument.ts';
import { OPENAPI_FILE } from '@leadforge/contracts/openapi/openApiFile.ts';

export { OPENAPI_FILE };

export function renderOpenApi(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const rendered = renderOpenApi();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
    if (current !== rendered) {
      console.error('packages/contracts/src/openapi/openapi.json is stale: run node --import tsx stack/src/openapi/generateOpenApi.ts');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(OPENAPI_FILE, rendered);
    console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
  }
}
