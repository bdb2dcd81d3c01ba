/**
 * The web image's nginx configuration (deploy/docker/web.nginx.conf), served by a real nginx over the
 * built SPA (web/dist, which `npm test` builds first): health check, client-side routes answered
 * with index.html, fingerprinted assets cached for a year, a missing asset a 404. The image's base
 * (nginx-unprivileged) is not reachable here; Debian's nginx runs the same server block.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@leadforge/stack';
import { REPO_ROOT } from '../../deploy/workspaceServices.ts';

const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => fs.existsSync(candidate));
const dist = path.join(REPO_ROOT, 'web', 'dist');
const skipReason = nginx ? '' : ' (skipped: no nginx binary; .ci/run installs Debian\'s nginx)';

/** The image's server block, moved to a free loopback port and the checkout's build output. */
function serverBlock(port: number): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'docker', 'web.nginx.conf'), 'utf8');
  const moved = text.replace(/listen 8080;/, `listen 127.0.0.1:${port};`).replace(/root \/usr\/share\/nginx\/html;/, `root ${dist};`);
  if (moved.includes('listen 8080;') || !moved.includes(`root ${dist};`)) throw new Error('web.nginx.conf no longer has `listen 8080;` and `root /usr/share/nginx/html;`: update this test');
  return moved;
}

describe.skipIf(!nginx)(`the web image's nginx configuration${skipReason}`, () => {
  let prefix: string;
  let base: string;
  let server: ChildProcess;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is missing: npm run build --workspace @leadforge/web');
    prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-nginx-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // One process as the current user, as the unprivileged image runs it; temp files under the prefix.
    fs.writeFileSync(path.join(prefix, 'nginx.conf'), `daemon off;
master_process off;
pid ${prefix}/nginx.pid;
error_log stderr warn;
events {}
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  ${serverBlock(port)}
}
`);
    const checked = spawnSync(nginx!, ['-t', '-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { encoding: 'utf8' });
    expect(checked.status, checked.stderr).toBe(0);
    server = spawn(nginx!, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'inherit'] });
    const deadline = Date.now() + 10_000;
    while (!(await fetch(`${base}/healthz`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline) throw new Error('nginx did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(() => {
    server?.kill('SIGTERM');
    if (prefix) fs.rmSync(prefix, { recursive: true, force: true });
  });

  it('answers the image health check without touching the files', async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('server')).toBe('nginx');
  });

  it('answers every client-side route with the SPA, never cached', async () => {
    const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    for (const route of ['/', '/dashboard', '/admin', '/promo/cbc500', '/affiliate?ref=ABC']) {
      const response = await fetch(`${base}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type'), route).toContain('text/html');
      expect(response.headers.get('cache-control'), route).toBe('no-cache');
      expect(await response.text(), route).toBe(index);
    }
  });

  it('serves fingerprinted assets for a year with their type, and a missing asset is a 404, not the SPA', async () => {
    const assets = fs.readdirSync(path.join(dist, 'assets'));
    const script = assets.find((name) => name.endsWith('.js'));
    const style = assets.find((name) => name.endsWith('.css'));
    expect(script && style, assets.join(', ')).toBeTruthy();
    for (const [name, type] of [[script!, 'javascript'], [style!, 'text/css']]) {
      const response = await fetch(`${base}/assets/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toContain(type);
      expect(response.headers.get('cache-control'), name).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(path.join(dist, 'assets', name))), name).toBe(true);
    }
    const missing = await fetch(`${base}/assets/index-00000000.js`);
    expect(missing.status).toBe(404);
  });
});
