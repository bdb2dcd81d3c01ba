import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page and returns its critical and serious findings.
 * Injected by evaluation rather than a <script> tag: the app's CSP (rightly) refuses inline scripts.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({ id: v.id, impact: v.impact as string, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** How many CSS pixels the page is wider than the window (0: it does not scroll sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

/** The elements that stick out past the window's right edge, for a readable failure. */
export function elementsPastTheEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.right > width + 1 && box.width > 0) {
        // Only the outermost offender of a branch says where the problem is.
        if (el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1) continue;
        out.push(`${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} (right ${Math.round(box.right)})`);
      }
    }
    return out.slice(0, 10);
  });
}
