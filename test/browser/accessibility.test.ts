import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { chromiumAvailable, launchBrowser, screenshot, SHOTS_DIR } from '../support/browser.ts';
import { axeFindings, elementsPastTheEdge, sidewaysOverflow, type AxeFinding } from '../support/accessibility.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

// Long, unbroken addresses: the tables must wrap or scroll them inside themselves, not widen the page.
const USER = { name: 'Petra Phone', email: 'petra.phone.with.a.rather.long.address@subdomain.example.com', password: 'secret123' };
const ADMIN = { name: 'Ada Admin', email: 'ada.admin@example.com', password: 'secret123' };

interface Screen {
  /** What the report and the screenshot are called. */
  name: string;
  path: string;
  /** Brings the page into the state to check once it has loaded (open a menu, a dialog). */
  prepare?: (page: Page) => Promise<void>;
}

const PUBLIC_SCREENS: Screen[] = [
  { name: 'home', path: '/' },
  { name: 'login', path: '/login' },
  { name: 'register', path: '/register' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'reset-password', path: '/reset-password?token=a-token-from-an-email' },
  { name: 'promo', path: '/promo/cbc500' },
  { name: 'contact', path: '/contact' },
  { name: 'opt-out', path: '/opt-out' },
];

const SIGNED_IN_SCREENS: Screen[] = [
  { name: 'dashboard', path: '/dashboard' },
  { name: 'searches', path: '/searches' },
  { name: 'user-menu', path: '/dashboard', prepare: async (page) => { await page.getByTestId('user-menu-button').click(); await page.getByRole('navigation', { name: 'Account' }).waitFor(); } },
  { name: 'credits', path: '/credits' },
  {
    name: 'checkout-dialog',
    path: '/credits',
    prepare: async (page) => {
      await page.getByTestId('plan-growth').getByRole('button', { name: /test checkout/i }).click();
      await page.getByRole('dialog').waitFor();
      // A fixed dialog never widens the page, so the sideways check cannot see it sticking out: measure it.
      const box = (await page.getByRole('dialog').boundingBox())!;
      const width = page.viewportSize()!.width;
      if (box.x < 0 || box.x + box.width > width) throw new Error(`the dialog spans x=${Math.round(box.x)} to ${Math.round(box.x + box.width)} in a ${width} px window`);
    },
  },
  { name: 'affiliate', path: '/affiliate' },
  { name: 'settings', path: '/settings' },
  { name: 'developers', path: '/developers', prepare: async (page) => { await page.getByTestId('api-key-row').first().waitFor(); } },
];

const ADMIN_SCREENS: Screen[] = ['overview', 'users', 'decodo', 'activity', 'contacts', 'credits', 'opt-outs', 'affiliates'].map((tab) => ({ name: `admin-${tab}`, path: `/admin?tab=${tab}` }));
/** The per-user view of the signed-in user (its id is known once they have registered). */
const userDetailScreen = (): Screen => ({ name: 'admin-user-detail', path: `/admin?tab=users&user=${userId}` });
let userId = '';

describe.skipIf(!chromiumAvailable)('every page at 1280x800 and 390x844: no sideways scrolling, no critical or serious axe finding (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  const tokens: Record<'user' | 'admin', string> = { user: '', admin: '' };
  /** One line per screen and size, printed at the end: the figures the issue asks for. */
  const report: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startLocalStack({ env: { ADMIN_EMAILS: ADMIN.email, PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', AUTH_REGISTER_PER_IP_PER_HOUR: '1000' }, timeoutMs: 600_000 }),
      launchBrowser(),
    ]);
    const api = apiClient(stack.url);
    tokens.admin = (await registerAdmin(api, stack.dataDir, ADMIN)).token;
    const registered = (await api('POST', '/api/auth/register', USER)).body;
    tokens.user = registered.access_token;
    userId = registered.user.id;
    // What makes the pages wide on a phone: an API key in the table, a purchase in the history.
    for (const token of [tokens.user, tokens.admin]) expect((await api('POST', '/api/api-keys', { name: 'CRM sync for the sales team' }, bearer(token))).status).toBe(201);
    const created = await api('POST', '/api/payments/create', { plan_id: 'starter' }, bearer(tokens.user));
    await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
    expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(tokens.user))).status).toBe(200);
  }, 900_000);

  afterAll(async () => {
    console.log(`axe-core critical/serious findings and sideways overflow per screen:\n${report.join('\n')}`);
    await browser?.close();
    await stack?.stop();
  });

  /** One browser context per person and size, signed in once; each screen is a navigation in it. */
  async function openAs(who: 'anonymous' | 'user' | 'admin', viewport: (typeof VIEWPORTS)[number]) {
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    if (who !== 'anonymous') {
      await page.goto(`${stack.url}/opt-out`);
      await page.evaluate((t) => localStorage.setItem('token', t), tokens[who]);
    }
    return { context, page };
  }

  /** Opens `screen`, waits for it to settle, and returns what is wrong with it. */
  async function check(page: Page, who: string, screen: Screen, viewport: (typeof VIEWPORTS)[number]) {
    await page.goto(`${stack.url}${screen.path}`);
    await page.locator('h1').first().waitFor();
    // Data still loading is not what a person reads the page for.
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && !/Loading/.test(document.querySelector('main')?.textContent ?? ''));
    await screen.prepare?.(page);
    const findings = await axeFindings(page);
    const overflow = await sidewaysOverflow(page);
    const label = `${who} ${screen.name} ${viewport.name}`;
    report.push(`${label.padEnd(40)} critical ${findings.filter((f) => f.impact === 'critical').length}, serious ${findings.filter((f) => f.impact === 'serious').length}, overflow ${overflow}px${findings.length ? `  (${[...new Set(findings.map((f) => f.id))].join(', ')})` : ''}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    const shotName = `a11y-${who}-${screen.name}-${viewport.name}`;
    // An open menu or dialog is shown as the window shows it (a full-page shot would misplace fixed overlays).
    await (screen.prepare ? page.screenshot({ path: path.join(SHOTS_DIR, `${shotName}.png`) }) : screenshot(page, shotName));
    return { findings, overflow, pastTheEdge: overflow ? await elementsPastTheEdge(page) : [] };
  }

  const describeFindings = (findings: AxeFinding[]) => findings.map((f) => `${f.impact} ${f.id}: ${f.help} at ${f.targets.slice(0, 3).join(' | ')}`);

  const screensOf = {
    anonymous: () => PUBLIC_SCREENS,
    user: () => SIGNED_IN_SCREENS,
    admin: () => [...SIGNED_IN_SCREENS.filter((s) => s.name !== 'checkout-dialog'), ...ADMIN_SCREENS, userDetailScreen()],
  };
  for (const who of ['anonymous', 'user', 'admin'] as const) {
    for (const viewport of VIEWPORTS) {
      it(`${who} at ${viewport.name} size (${viewport.width}x${viewport.height})`, async () => {
        const problems: string[] = [];
        const { context, page } = await openAs(who, viewport);
        for (const screen of screensOf[who]()) {
          const checked = await check(page, who, screen, viewport).catch((error: Error) => error);
          if (checked instanceof Error) {
            problems.push(`${screen.name}: ${checked.message.split('\n')[0]}`);
            continue;
          }
          const { findings, overflow, pastTheEdge } = checked;
          problems.push(...describeFindings(findings).map((line) => `${screen.name}: ${line}`));
          if (overflow) problems.push(`${screen.name}: scrolls sideways by ${overflow}px (${pastTheEdge.join(', ')})`);
        }
        await context.close();
        expect(problems).toEqual([]);
      }, 600_000);
    }
  }
});
