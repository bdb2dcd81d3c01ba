import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_REPLACING_TESTS } from '../../vitest.config.ts';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const WORKSPACE_FOLDERS = ['packages', 'services', 'gateway', 'web/src', 'scripts', 'stack/test'];

describe('the test projects of vitest.config.ts', () => {
  // The workspaces' tests share a worker's modules: a vi.mock there would meet a module another file
  // already imported and replace nothing. Such files run in the isolated project, listed by name.
  it('lists every workspace test that replaces a module, and only those, as isolated', () => {
    const replacing = WORKSPACE_FOLDERS.flatMap((folder) => (fs.readdirSync(path.join(ROOT, folder), { recursive: true }) as string[])
      .filter((file) => /\.test\.tsx?$/.test(file) && !file.split(path.sep).includes('node_modules'))
      .map((file) => path.join(folder, file))
      .filter((file) => /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(path.join(ROOT, file), 'utf8'))));
    expect(replacing.sort()).toEqual([...MODULE_REPLACING_TESTS].sort());
  });
});
