import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

describe('the Node versions the product promises', () => {
  // The README promises Node 20 (package.json's engines): a locked package that declares a newer Node
  // makes `npm install` warn (EBADENGINE) there, and may use what Node 20 lacks.
  it('every package of package-lock.json runs on the oldest Node that package.json accepts', () => {
    const oldest = semver.minVersion(readJson('package.json').engines.node)!;
    expect(oldest.major).toBe(20);
    const packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> = readJson('package-lock.json').packages;
    const refusing = Object.entries(packages)
      .filter(([, entry]) => {
        const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return wanted !== undefined && !semver.satisfies(oldest, wanted);
      })
      .map(([at, entry]) => `${at}@${entry.version}: node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
