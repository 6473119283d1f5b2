import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium; the flags keep it from reaching for a network this machine does not have. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
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
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors, close: () => context.close() } satisfies { page: Page; errors: string[]; close(): Promise<void> };
}
