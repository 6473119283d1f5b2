import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let running: Promise<Browser> | undefined;

/**
 * Debian's Chromium; the flags keep it from reaching for a network this machine does not have.
 * One Chromium per test process: the end-to-end configs run their files one after another in one
 * process (`isolate: false`), and starting Chromium for every file cost 1–3 s each. A file gets its
 * own handle, whose close() closes the contexts (pages, cookies) that file opened and leaves the
 * browser to the next file; it goes with the process.
 */
export async function launchBrowser(): Promise<Browser> {
  let browser = await running?.catch(() => undefined);
  if (!browser?.isConnected()) {
    running = chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    browser = await running;
  }
  const shared = browser;
  const opened: BrowserContext[] = [];
  const track = async (context: BrowserContext) => {
    opened.push(context);
    context.on('page', waitForHydrationOnLoad);
    return context;
  };
  return new Proxy(shared, {
    get(target, property) {
      if (property === 'close') return async () => void (await Promise.all(opened.splice(0).map((context) => context.close())));
      if (property === 'newContext') return async (...args: Parameters<Browser['newContext']>) => track(await target.newContext(...args));
      if (property === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          await track(page.context());
          return waitForHydrationOnLoad(page);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Each patched page's own `goto`, for a load that must not wait for hydration. */
const plainGoto = new WeakMap<Page, Page['goto']>();

/**
 * After `goto` and `reload` a page is also hydrated before the test goes on. Remix hydrates when the
 * browser is idle after the load event, so a click that came straight after a load could reach the
 * server-rendered markup before React's handlers (a dialog's link navigates instead of opening it, a
 * switch posts without its toast); on a loaded machine that gap is long enough to lose a test. A
 * response that is not a Remix page (the plain 503 page, a file) has no `__remixContext`, and neither has
 * a page with JavaScript off (its inline script does not run): neither is waited for.
 */
function waitForHydrationOnLoad(page: Page): Page {
  if (plainGoto.has(page)) return page;
  const hydrated = () => page.waitForFunction(() => !('__remixContext' in window) || document.documentElement.dataset.hydrated === 'true');
  const goto = page.goto.bind(page);
  plainGoto.set(page, goto);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated();
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated();
    return response;
  };
  return page;
}

/** `page.goto` without the wait for hydration: for a page whose scripts the test blocks on purpose. */
export function gotoWithoutHydration(page: Page, ...args: Parameters<Page['goto']>) {
  return (plainGoto.get(page) ?? page.goto.bind(page))(...args);
}

/**
 * A page that collects console errors and uncaught exceptions for the test to
 * check. With `sessionCookie` ('finflow_session=…', from an API sign-in) the
 * page starts signed in, so tests about other things skip the login screens.
 */
export async function newStrictPage(browser: Browser, options: { javaScriptEnabled?: boolean; sessionCookie?: string } = {}) {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
  if (options.sessionCookie) {
    const [name, ...value] = options.sessionCookie.split('=');
    await context.addCookies([{ name, value: value.join('='), url: inject('baseUrl') }]);
  }
  const page = waitForHydrationOnLoad(await context.newPage());
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors, close: () => context.close() } satisfies { page: Page; errors: string[]; close(): Promise<void> };
}
