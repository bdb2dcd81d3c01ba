import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../src/gateway.ts';

/** A built SPA as Vite lays it out: an index naming one fingerprinted script. */
function writeBuild(dir: string, fingerprint: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><script type="module" src="/assets/index-${fingerprint}.js"></script>`);
  fs.writeFileSync(path.join(dir, 'assets', `index-${fingerprint}.js`), `console.log('${fingerprint}');`);
}

describe('the gateway serves the SPA as it is on disk', () => {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-gateway-web-'));
  let gateway: RunningGateway;
  const get = (url: string) => fetch(`${gateway.url}${url}`);

  beforeAll(async () => {
    writeBuild(webDist, 'first');
    gateway = await startGateway({ port: 0, host: '127.0.0.1', serviceUrls: {}, webDist, internalToken: 'test-internal-token', logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await gateway?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves a client-side route and its script', async () => {
    const page = await get('/dashboard');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/assets/index-first.js');
    expect((await get('/assets/index-first.js')).status).toBe(200);
  });

  // A gateway that kept the index of its start named a script the rebuild had deleted: the page stayed blank.
  it('after a rebuild replaced the assets, a page names the new script, which it serves', async () => {
    writeBuild(webDist, 'second');
    const page = await get('/dashboard');
    expect(await page.text()).toContain('/assets/index-second.js');
    const script = await get('/assets/index-second.js');
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('second');
    expect((await get('/')).status).toBe(200);
  });

  it('answers 503 with a detail while the build is not there', async () => {
    fs.rmSync(path.join(webDist, 'index.html'));
    const page = await get('/dashboard');
    expect(page.status).toBe(503);
    expect(await page.json()).toMatchObject({ detail: expect.stringContaining('being built') });
  });
});
