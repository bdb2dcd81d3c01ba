import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BLOCK = 512;

/**
 * Writes a cluster archive (PGlite's `dumpDataDir('gzip')`: a gzipped tar of folders and plain files)
 * into `dir`. Done here rather than by PGlite's `loadDataDir`, which keeps the unpacked archive in
 * the process's memory (a first start then idled ~300 MB higher).
 */
export function extractClusterArchive(archive: Uint8Array, dir: string): void {
  const tar = zlib.gunzipSync(archive);
  const field = (at: number, length: number) => tar.toString('latin1', at, at + length).split('\0')[0];
  for (let at = 0; at + BLOCK <= tar.length;) {
    const name = field(at, 100);
    if (!name) break;
    const size = parseInt(field(at + 124, 12).trim() || '0', 8);
    const type = field(at + 156, 1) || '0';
    const relative = path.normalize(path.join(field(at + 345, 155), name)).replace(/^(\.\.(\/|$))+/, '').replace(/^\/+/, '');
    const target = path.join(dir, relative);
    if (type === '5') fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    else if (type === '0') {
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, tar.subarray(at + BLOCK, at + BLOCK + size), { mode: 0o600 });
    } else throw new Error(`unexpected entry type '${type}' in the embedded cluster archive`);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
}
