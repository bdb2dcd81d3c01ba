/**
 * Images for a cluster that reaches no registry: the add-ons' images made here from the binaries the
 * toolchain built (FROM scratch, one static binary each), and every image the cluster runs imported
 * into its containerd from the engine's store. An image already imported with the same id is not
 * imported again.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ContainerEngine } from '../infrastructure/containers.ts';
import { PAUSE_IMAGE } from './clusterComponents.ts';
import type { ClusterPaths } from './clusterLayout.ts';
import { binaryPath, buildPause, COREDNS_VERSION, KEDA_VERSION, METRICS_SERVER_VERSION } from './toolchain.ts';

const run = promisify(execFile);

interface AddonImage {
  image: string;
  binary: () => Promise<string>;
}

export const ADDON_IMAGES = {
  coredns: `localhost/leadforge/coredns:${COREDNS_VERSION}`,
  metricsServer: `localhost/leadforge/metrics-server:${METRICS_SERVER_VERSION}`,
  keda: `localhost/leadforge/keda:${KEDA_VERSION}`,
  kedaAdapter: `localhost/leadforge/keda-adapter:${KEDA_VERSION}`,
  pause: PAUSE_IMAGE,
} as const;

function addonImages(cacheDir: string): AddonImage[] {
  const built = (tool: Parameters<typeof binaryPath>[0], name: string) => async () => binaryPath(tool, name, cacheDir);
  return [
    { image: ADDON_IMAGES.coredns, binary: built('coredns', 'coredns') },
    { image: ADDON_IMAGES.metricsServer, binary: built('metrics-server', 'metrics-server') },
    { image: ADDON_IMAGES.keda, binary: built('keda', 'keda') },
    { image: ADDON_IMAGES.kedaAdapter, binary: built('keda', 'keda-adapter') },
    { image: ADDON_IMAGES.pause, binary: () => buildPause({ cacheDir }) },
  ];
}

async function imageId(engine: ContainerEngine, image: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(engine.command, ['image', 'inspect', '--format', '{{.Id}}', image], { env: engine.env });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Builds each add-on image whose binary is newer than the image (or that does not exist). */
export async function ensureAddonImages(engine: ContainerEngine, cacheDir: string, log: (line: string) => void): Promise<string[]> {
  const images: string[] = [];
  for (const addon of addonImages(cacheDir)) {
    const binary = await addon.binary();
    const stamp = `${path.basename(path.dirname(binary))}/${fs.statSync(binary).size}`;
    images.push(addon.image);
    const { stdout } = await run(engine.command, ['image', 'inspect', '--format', '{{index .Labels "io.leadforge.binary"}}', addon.image], { env: engine.env }).catch(() => ({ stdout: '' }));
    if (stdout.trim() === stamp) continue;
    const context = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-addon-'));
    try {
      fs.copyFileSync(binary, path.join(context, 'program'));
      fs.chmodSync(path.join(context, 'program'), 0o755);
      // Static Go binaries: nothing else in the image. Non-root, as the add-ons' own images run.
      fs.writeFileSync(path.join(context, 'Containerfile'), [
        'FROM scratch',
        'COPY program /program',
        `LABEL io.leadforge.binary="${stamp}"`,
        'USER 65532:65532',
        'ENTRYPOINT ["/program"]',
        '',
      ].join('\n'));
      log(`  image ${addon.image}`);
      await run(engine.command, ['build', '--format', 'docker', '-q', '-t', addon.image, context], { env: engine.env });
    } finally {
      fs.rmSync(context, { recursive: true, force: true });
    }
  }
  return images;
}

/** Imports the images whose id differs from the one last imported into this cluster's containerd. */
export async function importImages(engine: ContainerEngine, paths: ClusterPaths, images: string[], log: (line: string) => void): Promise<number> {
  const recordFile = path.join(paths.containerdRoot, 'imported.json');
  const record: Record<string, string> = fs.existsSync(recordFile) ? JSON.parse(fs.readFileSync(recordFile, 'utf8')) : {};
  const ids = await Promise.all(images.map((image) => imageId(engine, image)));
  const missing = images.filter((_, i) => !ids[i]);
  if (missing.length) throw new Error(`not in ${engine.command}'s store: ${missing.join(', ')} (npm run images)`);
  const stale = images.filter((image, i) => record[image] !== ids[i]);
  if (!stale.length) return 0;
  log(`  importing ${stale.length} image${stale.length > 1 ? 's' : ''} into the cluster's containerd`);
  // The engine streams one archive of them all; containerd unpacks it as it reads.
  await new Promise<void>((resolve, reject) => {
    const save = spawn(engine.command, ['save', '--multi-image-archive', '--format', 'docker-archive', ...stale], { env: engine.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ctr = spawn('/usr/bin/ctr', ['--address', paths.containerdSocket, '--namespace', 'k8s.io', 'images', 'import', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    save.stdout.pipe(ctr.stdin);
    let errors = '';
    save.stderr.on('data', (d) => { errors += d; });
    ctr.stderr.on('data', (d) => { errors += d; });
    ctr.stdout.resume();
    let pending = 2;
    const done = (what: string) => (code: number | null) => {
      if (code !== 0) reject(new Error(`${what} exited with ${code}: ${errors.trim()}`));
      else if (--pending === 0) resolve();
    };
    save.once('exit', done(`${engine.command} save`));
    ctr.once('exit', done('ctr images import'));
    save.once('error', reject);
    ctr.once('error', reject);
  });
  stale.forEach((image) => { record[image] = ids[images.indexOf(image)]!; });
  fs.mkdirSync(path.dirname(recordFile), { recursive: true });
  fs.writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  return stale.length;
}
