/**
 * The cluster's programs, built once from pinned sources into the cache folder
 * (`$LEADFORGE_CACHE_DIR/cluster/<tool>-<version>/`), keyed by version: Kubernetes' own binaries, helm,
 * CoreDNS, metrics-server, KEDA and skaffold from their Go modules (the Go module proxy is the one
 * place their sources are reachable from here), and Debian's etcd, containerd, runc and CNI plugins.
 * A tool is built into a temporary folder and renamed when complete, so an interrupted build leaves
 * nothing that looks finished. The Go caches live in the cache folder too: a machine without it
 * starts from nothing, which is what a cold run measures.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { leadforgeCacheDir, MissingPrerequisite } from '../infrastructure/prerequisites.ts';

export const KUBERNETES_VERSION = 'v1.34.4';
export const HELM_VERSION = 'v3.22.0';
export const COREDNS_VERSION = 'v1.15.0';
export const METRICS_SERVER_VERSION = 'v0.8.0';
export const KEDA_VERSION = 'v2.21.0';
export const SKAFFOLD_VERSION = 'v2.16.1';

/** Kubernetes' staging modules: its go.mod points them at its own tree, so a build outside it takes their published releases. */
const KUBERNETES_STAGING = [
  'api', 'apiextensions-apiserver', 'apimachinery', 'apiserver', 'cli-runtime', 'client-go', 'cloud-provider',
  'cluster-bootstrap', 'code-generator', 'component-base', 'component-helpers', 'controller-manager', 'cri-api',
  'cri-client', 'csi-translation-lib', 'dynamic-resource-allocation', 'endpointslice', 'externaljwt', 'kms',
  'kube-aggregator', 'kube-controller-manager', 'kube-proxy', 'kube-scheduler', 'kubectl', 'kubelet', 'metrics',
  'mount-utils', 'pod-security-admission', 'sample-apiserver', 'sample-cli-plugin', 'sample-controller',
];

export const KUBERNETES_BINARIES = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'kube-proxy', 'kubectl'] as const;

/** Debian packages the cluster runs, with the program that shows each is installed. */
export const DEBIAN_PACKAGES: Array<{ name: string; provides: string }> = [
  { name: 'etcd-server', provides: '/usr/bin/etcd' },
  { name: 'containerd', provides: '/usr/bin/containerd' },
  { name: 'runc', provides: '/usr/sbin/runc' },
  { name: 'containernetworking-plugins', provides: '/usr/lib/cni/bridge' },
  { name: 'iptables', provides: '/usr/sbin/iptables' },
  { name: 'conntrack', provides: '/usr/sbin/conntrack' },
  { name: 'iproute2', provides: '/usr/sbin/ip' },
  { name: 'util-linux', provides: '/usr/bin/nsenter' },
  { name: 'openssl', provides: '/usr/bin/openssl' },
  { name: 'docker-registry', provides: '/usr/bin/docker-registry' },
];

interface GoTool {
  name: string;
  version: string;
  /** The module whose main packages are built. */
  module: string;
  /** Main packages to build, each giving a binary named after its last path element (or `rename`). */
  packages: Array<{ path: string; binary: string }>;
  /** go.mod directives beyond the `require` of `module`. */
  extraGoMod?: string;
  env?: Record<string, string>;
  /** Build tags and linker flags. */
  tags?: string;
  ldflags?: string;
  /** The cluster reads files of the module's source too (KEDA's CRDs and roles), not only the binaries. */
  sourceRead?: boolean;
}

const kubernetesTool: GoTool = {
  name: 'kubernetes',
  version: KUBERNETES_VERSION,
  module: 'k8s.io/kubernetes',
  packages: KUBERNETES_BINARIES.map((binary) => ({ path: `k8s.io/kubernetes/cmd/${binary}`, binary })),
  extraGoMod: `replace (\n${KUBERNETES_STAGING.map((name) => `\tk8s.io/${name} => k8s.io/${name} ${KUBERNETES_VERSION.replace(/^v1\./, 'v0.')}`).join('\n')}\n)\n`,
  env: { CGO_ENABLED: '0' },
  ldflags: [
    `-X k8s.io/component-base/version.gitVersion=${KUBERNETES_VERSION}`,
    `-X k8s.io/component-base/version.gitMajor=1`,
    `-X k8s.io/component-base/version.gitMinor=${KUBERNETES_VERSION.split('.')[1]}`,
    '-X k8s.io/component-base/version.gitTreeState=clean',
    `-X k8s.io/client-go/pkg/version.gitVersion=${KUBERNETES_VERSION}`,
  ].join(' '),
};

const helmTool: GoTool = {
  name: 'helm',
  version: HELM_VERSION,
  module: 'helm.sh/helm/v3',
  packages: [{ path: 'helm.sh/helm/v3/cmd/helm', binary: 'helm' }],
  env: { CGO_ENABLED: '0' },
  // As helm's Makefile sets them from the k8s.io/client-go it requires (v0.37): the Kubernetes version
  // `helm template` and `helm lint` assume when no cluster is asked.
  ldflags: [
    `-X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}`,
    ...['pkg/lint/rules', 'pkg/chartutil'].flatMap((pkg) => [`-X helm.sh/helm/v3/${pkg}.k8sVersionMajor=1`, `-X helm.sh/helm/v3/${pkg}.k8sVersionMinor=37`]),
  ].join(' '),
};

const corednsTool: GoTool = {
  name: 'coredns',
  version: COREDNS_VERSION,
  module: 'github.com/coredns/coredns',
  packages: [{ path: 'github.com/coredns/coredns', binary: 'coredns' }],
  env: { CGO_ENABLED: '0' },
};

const metricsServerTool: GoTool = {
  name: 'metrics-server',
  version: METRICS_SERVER_VERSION,
  module: 'sigs.k8s.io/metrics-server',
  packages: [{ path: 'sigs.k8s.io/metrics-server/cmd/metrics-server', binary: 'metrics-server' }],
  env: { CGO_ENABLED: '0' },
};

const kedaTool: GoTool = {
  name: 'keda',
  version: KEDA_VERSION,
  module: 'github.com/kedacore/keda/v2',
  packages: [
    { path: 'github.com/kedacore/keda/v2/cmd/operator', binary: 'keda' },
    { path: 'github.com/kedacore/keda/v2/cmd/adapter', binary: 'keda-adapter' },
  ],
  // KEDA's own go.mod carries one replace and one exclude that a dependent module must repeat.
  extraGoMod: 'FROM_MODULE',
  env: { CGO_ENABLED: '0' },
  sourceRead: true,
  ldflags: `-X github.com/kedacore/keda/v2/version.Version=${KEDA_VERSION.replace(/^v/, '')}`,
};

const skaffoldTool: GoTool = {
  name: 'skaffold',
  version: SKAFFOLD_VERSION,
  module: 'github.com/GoogleContainerTools/skaffold/v2',
  packages: [{ path: 'github.com/GoogleContainerTools/skaffold/v2/cmd/skaffold', binary: 'skaffold' }],
  extraGoMod: 'FROM_MODULE',
  env: { CGO_ENABLED: '0' },
  ldflags: `-X github.com/GoogleContainerTools/skaffold/v2/pkg/skaffold/version.version=${SKAFFOLD_VERSION}`,
};

export const GO_TOOLS = { kubernetes: kubernetesTool, helm: helmTool, coredns: corednsTool, 'metrics-server': metricsServerTool, keda: kedaTool, skaffold: skaffoldTool };
export type GoToolName = keyof typeof GO_TOOLS;

export function clusterCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(leadforgeCacheDir(env), 'cluster');
}

/** The Go environment every build shares: module and build caches inside the cache folder. */
function goEnv(cacheDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GOMODCACHE: path.join(cacheDir, 'go', 'mod'),
    GOCACHE: path.join(cacheDir, 'go', 'build'),
    GOPATH: path.join(cacheDir, 'go', 'path'),
    GOFLAGS: '-mod=mod -buildvcs=false -trimpath',
    GOTOOLCHAIN: 'local',
    GOTELEMETRY: 'off',
  };
}

export function toolDir(name: GoToolName, cacheDir = clusterCacheDir()): string {
  const tool = GO_TOOLS[name];
  return path.join(cacheDir, `${tool.name}-${tool.version}`);
}

/** Path of a built binary (`kubelet`, `helm`, ...), whether or not it has been built yet. */
export function binaryPath(name: GoToolName, binary: string, cacheDir = clusterCacheDir()): string {
  return path.join(toolDir(name, cacheDir), binary);
}

/** What a build of the tool depends on besides its version: a change rebuilds it. */
function recipeOf(tool: GoTool): string {
  return crypto.createHash('sha256').update(JSON.stringify([tool.packages, tool.extraGoMod, tool.env, tool.tags, tool.ldflags])).digest('hex').slice(0, 12);
}

export function isBuilt(name: GoToolName, cacheDir = clusterCacheDir()): boolean {
  const marker = path.join(toolDir(name, cacheDir), '.complete');
  if (!fs.existsSync(marker)) return false;
  return (JSON.parse(fs.readFileSync(marker, 'utf8')) as { recipe?: string }).recipe === recipeOf(GO_TOOLS[name]);
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; log: (line: string) => void }): Promise<void> {
  return new Promise((resolve, reject) => {
    // nice: a build on a busy machine yields to whatever else runs (tests, the product).
    const child = spawn('nice', ['-n', '10', command, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} ${signal ? `killed by ${signal}` : `exited with code ${code}`}:\n${tail.join('\n')}`));
    });
  });
}

/** The `replace` and `exclude` directives of a module's own go.mod, which a module requiring it must repeat. */
function directivesOf(goMod: string): string {
  const out: string[] = [];
  const lines = goMod.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(replace|exclude)\s*\($/.test(line)) {
      const block = [line];
      while (i + 1 < lines.length && !/^\)/.test(lines[i + 1]!)) block.push(lines[++i]!);
      block.push(')');
      i++;
      // Replacements with local paths point into the module's own tree: there is none here.
      out.push(block.filter((entry) => !/=>\s*\.{1,2}\//.test(entry)).join('\n'));
    } else if (/^(replace|exclude)\s/.test(line) && !/=>\s*\.{1,2}\//.test(line)) {
      out.push(line);
    }
  }
  return out.join('\n') + '\n';
}

/** Builds one Go tool into the cache, unless it is there already. */
export async function buildGoTool(name: GoToolName, options: { cacheDir?: string; log?: (line: string) => void } = {}): Promise<string> {
  const cacheDir = options.cacheDir ?? clusterCacheDir();
  const log = options.log ?? ((line) => console.log(line));
  const tool = GO_TOOLS[name];
  const target = toolDir(name, cacheDir);
  const haveGo = () => {
    if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) throw new MissingPrerequisite('Go (to build the cluster\'s programs)', 'apt-get install -y golang-go, or Go from go.dev');
  };
  if (isBuilt(name, cacheDir)) {
    // A cache copied without its module cache has the binaries but not the source files the cluster reads.
    if (tool.sourceRead && !fs.existsSync(moduleDir(name, cacheDir))) {
      haveGo();
      const work = fs.mkdtempSync(path.join(cacheDir, `.source-${tool.name}-`));
      try {
        fs.writeFileSync(path.join(work, 'go.mod'), `module leadforge.local/source/${tool.name}\n\ngo 1.24.0\n`);
        await run('go', ['mod', 'download', `${tool.module}@${tool.version}`], { cwd: work, env: goEnv(cacheDir), log });
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    }
    return target;
  }
  haveGo();

  const env = { ...goEnv(cacheDir), ...tool.env };
  fs.mkdirSync(cacheDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheDir, `.build-${tool.name}-`));
  const started = Date.now();
  log(`  building ${tool.name} ${tool.version} from ${tool.module} (Go module proxy)…`);
  try {
    fs.writeFileSync(path.join(work, 'go.mod'), `module leadforge.local/build/${tool.name}\n\ngo 1.24.0\n\nrequire ${tool.module} ${tool.version}\n`);
    let extra = tool.extraGoMod ?? '';
    if (extra === 'FROM_MODULE') {
      await run('go', ['mod', 'download', `${tool.module}@${tool.version}`], { cwd: work, env, log });
      const original = fs.readFileSync(path.join(env.GOMODCACHE!, 'cache', 'download', ...escapeModulePath(tool.module).split('/'), '@v', `${tool.version}.mod`), 'utf8');
      extra = directivesOf(original);
    }
    fs.appendFileSync(path.join(work, 'go.mod'), `\n${extra}`);
    const out = path.join(work, 'out');
    fs.mkdirSync(out);
    const args = ['build', '-o', out + path.sep, '-p', '2'];
    if (tool.tags) args.push('-tags', tool.tags);
    args.push(`-ldflags=-s -w ${tool.ldflags ?? ''}`.trim());
    args.push(...tool.packages.map((p) => p.path));
    await run('go', args, { cwd: work, env, log });
    for (const p of tool.packages) {
      const built = path.join(out, path.basename(p.path));
      if (p.binary !== path.basename(p.path)) fs.renameSync(built, path.join(out, p.binary));
    }
    fs.writeFileSync(path.join(out, '.complete'), JSON.stringify({ module: tool.module, version: tool.version, recipe: recipeOf(tool), seconds: Math.round((Date.now() - started) / 1000) }) + '\n');
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(out, target);
    log(`  built ${tool.name} ${tool.version} in ${Math.round((Date.now() - started) / 1000)} s`);
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const PAUSE_SOURCE = path.resolve(new URL('../../../deploy/cluster/pause', import.meta.url).pathname);

/** The pod sandbox's program (deploy/cluster/pause), built once per version of its source. */
export async function buildPause(options: { cacheDir?: string; log?: (line: string) => void } = {}): Promise<string> {
  const cacheDir = options.cacheDir ?? clusterCacheDir();
  const source = fs.readFileSync(path.join(PAUSE_SOURCE, 'main.go'));
  const target = path.join(cacheDir, `pause-${crypto.createHash('sha256').update(source).digest('hex').slice(0, 12)}`, 'pause');
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await run('go', ['build', '-o', `${target}.partial`, '-ldflags=-s -w', '.'], { cwd: PAUSE_SOURCE, env: { ...goEnv(cacheDir), CGO_ENABLED: '0' }, log: options.log ?? (() => {}) });
  fs.renameSync(`${target}.partial`, target);
  return target;
}

/** The module proxy's case encoding: an upper-case letter becomes `!` and its lower case. */
function escapeModulePath(modulePath: string): string {
  return modulePath.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** Where a downloaded module's files are (for the manifests it ships: KEDA's CRDs). */
export function moduleDir(name: GoToolName, cacheDir = clusterCacheDir()): string {
  const tool = GO_TOOLS[name];
  return path.join(cacheDir, 'go', 'mod', ...escapeModulePath(tool.module).split('/').slice(0, -1), `${escapeModulePath(tool.module).split('/').at(-1)}@${tool.version}`);
}

/** Debian packages that are missing, and the one command that installs them. */
export function missingDebianPackages(): string[] {
  return DEBIAN_PACKAGES.filter((p) => !fs.existsSync(p.provides)).map((p) => p.name);
}

export async function ensureDebianPackages(log: (line: string) => void): Promise<void> {
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) throw new MissingPrerequisite(`Debian packages ${missing.join(', ')}`, command);
  log(`  installing ${missing.join(', ')} (${command})`);
  await run('sh', ['-c', `apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ${missing.join(' ')}`], { cwd: '/', env: process.env, log });
  const still = missingDebianPackages();
  if (still.length) throw new MissingPrerequisite(`Debian packages ${still.join(', ')}`, command, 'still missing after apt-get');
}
