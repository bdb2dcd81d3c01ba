/**
 * The built SPA served the way production serves it: nginx with the web image's own server block
 * (deploy/docker/web.nginx.conf), moved to a loopback port and the checkout's web/dist, behind
 * Envoy's `web` cluster. Debian's nginx runs the same server block as the image's nginx-unprivileged,
 * so client-side routes, asset caching and the 404 for a missing asset are the production ones, not a
 * Node imitation of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../freePort.ts';
import { runContainer, type ContainerEngine } from './containers.ts';
import { MissingPrerequisite } from './prerequisites.ts';
import { spawnServer, waitUntilReady } from './serverProcess.ts';

export const WEB_NGINX_CONF = path.resolve(new URL('../../../deploy/docker/web.nginx.conf', import.meta.url).pathname);

const NGINX_CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx'];
const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

export interface WebServer {
  port: number;
  pid: number;
  /** When it runs from the web image: the container's name and image. */
  container?: string;
  image?: string;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  url: string;
  stop(): Promise<void>;
}

export interface StartWebServerOptions {
  /** The built SPA (`npm run build --workspace @leadforge/web`), e.g. DEFAULT_WEB_DIST. */
  webDist: string;
  /** Gets nginx.conf, its temp folders and nginx.log. */
  workDir: string;
  /** On 127.0.0.1; a free port when omitted. */
  port?: number;
  /** Receives nginx's own messages (warnings, errors; Envoy logs the requests); else they go to `<workDir>/nginx.log`. */
  log?: (line: string) => void;
}

export function nginxBinary(): string {
  const found = NGINX_CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new MissingPrerequisite('nginx', 'apt-get install -y nginx');
  return found;
}

/** The image's server block, listening on loopback and serving `webDist`. */
export function webServerBlock(port: number, webDist: string): string {
  const text = fs.readFileSync(WEB_NGINX_CONF, 'utf8');
  const moved = text
    .replace(/^(\s*)listen 8080;/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^(\s*)root \/usr\/share\/nginx\/html;/m, `$1root ${JSON.stringify(webDist)};`);
  if (moved.includes('listen 8080;') || !moved.includes(`root ${JSON.stringify(webDist)};`)) {
    throw new Error(`${WEB_NGINX_CONF} no longer has \`listen 8080;\` and \`root /usr/share/nginx/html;\`: update stack/src/infrastructure/webServer.ts`);
  }
  return moved;
}

/** Starts nginx in the foreground (one process, as the current user) and resolves once `/healthz` answers. */
export async function startWebServer(options: StartWebServerOptions): Promise<WebServer> {
  const nginx = nginxBinary();
  if (!fs.existsSync(path.join(options.webDist, 'index.html'))) {
    throw new Error(`${options.webDist} has no index.html: npm run build --workspace @leadforge/web`);
  }
  const port = options.port ?? await freePort();
  const url = `http://127.0.0.1:${port}`;
  const workDir = path.resolve(options.workDir);
  fs.mkdirSync(workDir, { recursive: true });
  const configFile = path.join(workDir, 'nginx.conf');
  const temp = (name: string) => JSON.stringify(path.join(workDir, name));
  fs.writeFileSync(configFile, `daemon off;
master_process off;
pid ${temp('nginx.pid')};
error_log stderr warn;
events {}
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  ${webServerBlock(port, options.webDist)}
}
`);
  // `-e stderr`: nginx opens its compiled-in error log before reading the config, which fails for a non-root user.
  const server = spawnServer(nginx, ['-e', 'stderr', '-p', workDir, '-c', configFile], options.log ? { log: options.log } : { logFile: path.join(workDir, 'nginx.log') });
  const ready = () => fetch(`${url}/healthz`).then((res) => res.ok, () => false);
  await waitUntilReady(server, `nginx (${configFile})`, ready, READY_TIMEOUT_MS);
  return { port, pid: server.pid, exited: server.exited, url, stop: () => server.stop(STOP_TIMEOUT_MS) };
}

/**
 * The web image itself (`npm run images`) on the host's network: its server block moved to a loopback
 * port (the image's 8080 is Envoy's), mounted over the image's own; the SPA is the one built into it.
 */
export async function startWebContainer(options: { engine: ContainerEngine; image: string; name: string; workDir: string; port: number }): Promise<WebServer> {
  const workDir = path.resolve(options.workDir);
  fs.mkdirSync(workDir, { recursive: true });
  const serverBlock = path.join(workDir, 'default.conf');
  fs.writeFileSync(serverBlock, webServerBlock(options.port, '/usr/share/nginx/html'), { mode: 0o644 });
  const server = await runContainer({
    engine: options.engine,
    name: options.name,
    image: options.image,
    env: {},
    mounts: [{ source: serverBlock, target: '/etc/nginx/conf.d/default.conf', options: 'ro' }],
    logFile: path.join(workDir, 'nginx.log'),
  });
  const url = `http://127.0.0.1:${options.port}`;
  const ready = () => fetch(`${url}/healthz`).then((res) => res.ok, () => false);
  await waitUntilReady(server, `${options.image} (${serverBlock})`, ready, READY_TIMEOUT_MS);
  return { port: options.port, pid: await server.hostPid(), container: server.container, image: server.image, exited: server.exited, url, stop: () => server.stop(STOP_TIMEOUT_MS) };
}
