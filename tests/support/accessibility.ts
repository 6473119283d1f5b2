import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Result } from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { THEME_KEY, type Theme } from '../../app/utils/theme.ts';
import { gotoWithoutHydration } from './browser.ts';

/**
 * The accessibility check of the end-to-end suites (docs/CONVENTIONS.md):
 * axe-core on the rendered page, no serious or critical violation, exactly
 * one `main` landmark and one level-1 heading. Used by tests/e2e/accessibility.test.ts
 * and by any other harness that drives the app in Chromium.
 */

export const APPEARANCES: readonly Theme[] = ['light', 'dark'];

/** Light or dark from the first byte: the same cookie the settings switch sets (app/routes/preferences.tsx). */
export async function setAppearance(context: BrowserContext, baseUrl: string, appearance: Theme) {
  await context.addCookies([{ name: THEME_KEY, value: appearance, url: baseUrl }]);
}

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * The axe rules whose outcome depends on the appearance. Landmarks, names, roles and
 * headings are the same markup in light and dark, so the second appearance of a page
 * is checked with these alone (about half the time of a full run).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Waits until the page is hydrated and Remix has nothing in flight (navigation,
 * revalidation, fetchers), then one frame so the last render is painted. Quicker
 * than the network going idle for 500 ms, and it ends on pages that poll.
 */
export async function settle(page: Page) {
  await page.waitForFunction(() => {
    type Router = { state: { navigation: { state: string }; revalidation: string; fetchers: Map<string, { state: string }> } };
    const router = (window as unknown as { __remixRouter?: Router }).__remixRouter;
    // The router exists from hydration's first render; the root's mark comes when React has committed it.
    if (!router || document.readyState !== 'complete' || document.documentElement.dataset.hydrated !== 'true') return false;
    const { navigation, revalidation, fetchers } = router.state;
    return navigation.state === 'idle' && revalidation === 'idle' && Array.from(fetchers.values()).every((fetcher) => fetcher.state === 'idle');
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
}

export interface AccessibilityReport {
  url: string;
  /** axe violations of impact serious or critical. */
  violations: Result[];
  mainCount: number;
  h1Count: number;
  /** Every problem as one readable line (with its nodes below it); empty when the page passes. */
  problems: string[];
}

/**
 * Runs axe (every rule of axe-core: WCAG 2.x A/AA and best practices) on the
 * page as it is now, and counts the rendered `main` landmarks and level-1
 * headings (display:none does not count; a page behind an open modal still
 * counts, so a dialog's own title must not be a second h1).
 */
export async function auditPage(page: Page, { coloursOnly = false }: { coloursOnly?: boolean } = {}): Promise<AccessibilityReport> {
  // A sandboxed iframe shows a rendered email (template preview, outbox), not the app: axe cannot
  // run inside it (no scripts allowed) and waits for ever, so it is left out and only its name is
  // checked below.
  const results = await new AxeBuilder({ page })
    .exclude('iframe[sandbox]')
    // axe.run in the page itself: the default opens a blank page per check to merge frame results,
    // three times slower, and this app has no frames of its own to merge.
    .setLegacyMode(true)
    // Only violations are read: axe then skips collecting every passing node, a good part of its time.
    .options({ resultTypes: ['violations'], iframes: false, ...(coloursOnly ? { runOnly: { type: 'rule', values: COLOUR_RULES } } : {}) })
    .analyze();
  // axe leaves out aria-hidden-focus while a modal dialog is open: the page behind is aria-hidden
  // but focus cannot leave the dialog. A Radix menu or select list hides the page and traps focus
  // the same way, but axe only recognises role=dialog, so the same finding is left out while focus
  // is inside one of those (and reported whenever it is not).
  const focusTrappedInPopup = await page.evaluate(() => Boolean(document.activeElement?.closest('[role="menu"], [role="listbox"]')));
  const violations = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? '') && !(focusTrappedInPopup && violation.id === 'aria-hidden-focus'));
  const landmarks = await page.evaluate(() => {
    const rendered = (element: Element) => element.checkVisibility();
    return {
      main: Array.from(document.querySelectorAll('main, [role="main"]')).filter(rendered).length,
      h1: Array.from(document.querySelectorAll('h1, [role="heading"][aria-level="1"]'))
        .filter(rendered)
        .map((element) => (element.textContent ?? '').trim()),
      untitledFrames: document.querySelectorAll('iframe:not([title]), iframe[title=""]').length,
    };
  });
  const problems: string[] = [];
  if (landmarks.main !== 1) problems.push(`${landmarks.main} main landmarks (exactly one expected)`);
  if (landmarks.h1.length !== 1) {
    problems.push(`${landmarks.h1.length} h1 headings (exactly one expected)${landmarks.h1.length ? `: ${landmarks.h1.map((text) => JSON.stringify(text)).join(', ')}` : ''}`);
  }
  if (landmarks.untitledFrames > 0) problems.push(`${landmarks.untitledFrames} iframe(s) without a title`);
  for (const violation of violations) {
    const nodes = violation.nodes.slice(0, 5).map((node) => `      ${node.target.join(' >> ')}\n        ${node.failureSummary?.replace(/\n\s*/g, ' | ') ?? ''}`);
    const more = violation.nodes.length > 5 ? [`      … and ${violation.nodes.length - 5} more`] : [];
    problems.push(`[${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${[...nodes, ...more].join('\n')}`);
  }
  return { url: page.url(), violations, mainCount: landmarks.main, h1Count: landmarks.h1.length, problems };
}

/**
 * Opens `url` as a browser without JavaScript builds it, in a page where axe
 * can still run (axe needs the page's timers, which a context with JavaScript
 * off never fires): the app's scripts are not loaded, so nothing hydrates, and
 * each `<noscript>` is replaced by its markup, as a browser with scripting off
 * parses it (the no-JS form twins and the style that shows them).
 */
export async function gotoWithoutJavaScript(page: Page, url: string) {
  await page.route(/\.m?js(\?.*)?$/, (route) => route.abort());
  try {
    const response = await gotoWithoutHydration(page, url);
    await page.evaluate(() => {
      for (const element of Array.from(document.querySelectorAll('noscript'))) {
        element.insertAdjacentHTML('afterend', element.textContent ?? '');
        element.remove();
      }
    });
    return response;
  } finally {
    await page.unroute(/\.m?js(\?.*)?$/);
  }
}

/** The report as a failure message: where, then each problem. */
export function formatReport(where: string, report: AccessibilityReport): string {
  return `${where} (${report.url}) has ${report.problems.length} accessibility problem(s):\n  - ${report.problems.join('\n  - ')}`;
}

/** Audits the page and throws a readable error when it does not pass. */
export async function expectAccessible(page: Page, where: string): Promise<AccessibilityReport> {
  const report = await auditPage(page);
  if (report.problems.length > 0) throw new Error(formatReport(where, report));
  return report;
}

/**
 * Shows one state of a page in each appearance and audits it: `show` is called
 * after the appearance cookie is set and must (re)load the page and bring it
 * into the state. The first appearance gets every rule, the others the colour
 * rules. Throws one error naming every appearance that fails.
 */
export async function expectAccessibleInEachAppearance(page: Page, baseUrl: string, where: string, show: () => Promise<unknown>) {
  const failures: string[] = [];
  for (const [index, appearance] of APPEARANCES.entries()) {
    await setAppearance(page.context(), baseUrl, appearance);
    await show();
    const report = await auditPage(page, { coloursOnly: index > 0 });
    if (report.problems.length > 0) failures.push(formatReport(`${where}, ${appearance}`, report));
  }
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}

const root = path.resolve(new URL('../..', import.meta.url).pathname);

/**
 * The Remix route ids ('routes/_app.clients.$clientId') of every page module
 * in app/routes: a module with a default export renders a page; one without
 * (api.*, a loader or action only) is a resource route.
 */
export function pageRouteIds(routesDir = path.join(root, 'app/routes')): string[] {
  const ids: string[] = [];
  for (const entry of fs.readdirSync(routesDir, { withFileTypes: true })) {
    let file: string | undefined;
    let id: string;
    if (entry.isDirectory()) {
      file = ['route.tsx', 'route.ts', 'index.tsx', 'index.ts'].map((name) => path.join(routesDir, entry.name, name)).find((candidate) => fs.existsSync(candidate));
      // A folder route's id is the folder's name (Remix flat routes).
      id = `routes/${entry.name}`;
    } else {
      if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      file = path.join(routesDir, entry.name);
      id = `routes/${entry.name.replace(/\.tsx?$/, '')}`;
    }
    if (!file) continue;
    if (/^export default\b/m.test(fs.readFileSync(file, 'utf8'))) ids.push(id);
  }
  return ids.sort();
}

/** The Remix route ids the page now shows, outermost first (needs JavaScript: read from the hydrated router). */
export async function renderedRouteIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const router = (window as unknown as { __remixRouter?: { state: { matches: Array<{ route: { id: string } }> } } }).__remixRouter;
    return router ? router.state.matches.map((match) => match.route.id) : [];
  });
}
