/**
 * The web image's nginx configuration (deploy/docker/web.nginx.conf), served by a real nginx over the
 * built SPA (web/dist, which `npm test` builds first): health check, client-side routes answered
 * with index.html, fingerprinted assets cached for a year, a missing asset a 404. The image's base
 * (nginx-unprivileged) is not reachable here; Debian's nginx runs the same server block.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxBinary, startWebServer, type WebServer } from '@leadforge/stack';
import { REPO_ROOT } from '../../deploy/workspaceServices.ts';

const dist = path.join(REPO_ROOT, 'web', 'dist');
const missing = (() => {
  try {
    nginxBinary();
    return '';
  } catch (error) {
    return ` (skipped: ${(error as Error).message})`;
  }
})();

describe.skipIf(Boolean(missing))(`the web image's nginx configuration${missing}`, () => {
  let workDir: string;
  let base: string;
  let server: WebServer;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is missing: npm run build --workspace @leadforge/web');
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-nginx-'));
    // Debian's nginx with the image's own server block (deploy/docker/web.nginx.conf), as start:distributed runs it.
    server = await startWebServer({ webDist: dist, workDir });
    base = server.url;
  });

  afterAll(async () => {
    await server?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
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
