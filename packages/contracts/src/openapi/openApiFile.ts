/// <reference types="node" />
import { fileURLToPath } from 'node:url';

/**
 * The product's OpenAPI document (served at /api/openapi.json), beside this module in the sources and
 * in the compiled package alike. Written by stack/src/openapi/generateOpenApi.ts from the route
 * declarations; not in the package's index, which the web app imports.
 */
export const OPENAPI_FILE = fileURLToPath(new URL('./openapi.json', import.meta.url));
