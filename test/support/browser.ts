import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { settlesWithin } from '@leadforge/kit/work';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = fs.existsSync(CHROMIUM_PATH);
export const SHOTS_DIR = process.env.SCREENSHOT_DIR ?? path.resolve(new URL('../../screenshots', import.meta.url).pathname);

/** How long closing the browser may take before its process is killed. */
const CLOSE_WAIT_MS = 15_000;

/**
 * Debian's Chromium, headless, with nothing that reaches for the network on its own. Launched as a
 * server so that its process can be killed: Playwright's own close waits for the process to exit,
 * with no limit, and a Chromium that hangs on its way out would hold a test's teardown forever.
 * `close()` on the browser this returns closes it, and kills it when it has not ended in 15 s.
 */
export async function launchBrowser(): Promise<Browser> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const browser = await chromium.connect(server.wsEndpoint());
  const disconnect = browser.close.bind(browser);
  browser.close = async () => {
    const closed = Promise.all([disconnect().catch(() => undefined), server.close()]);
    if (await settlesWithin(closed, CLOSE_WAIT_MS)) return closed.then(() => undefined);
    console.error(`Chromium (pid ${server.process().pid}) did not close within ${CLOSE_WAIT_MS / 1000} s: killed`);
    await server.kill();
  };
  return browser;
}

/**
 * The bytes of a file the page downloaded. Saved through the connection: `download.path()` is not
 * available on a browser reached through its server, as launchBrowser's is.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-download-'));
  try {
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Saves a full-page screenshot under screenshots/ for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
