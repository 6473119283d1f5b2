import { defineConfig } from 'vitest/config';

// End-to-end: the real app started as `npm start` would start it (tests/support/app-server.ts),
// driven in Debian's Chromium through playwright-core.
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/support/app-server.ts'],
    pool: 'forks',
    // The files share one process (and with it one Chromium, tests/support/browser.ts) instead of
    // starting a process, loading Playwright and launching a browser for each of them.
    isolate: false,
    // One app, one browser; files run one after another so they do not fight for 2 cores.
    fileParallelism: false,
    testTimeout: 60_000,
    // Concurrent tests (tests/e2e/accessibility.test.ts: two pages at once) start only when a page is
    // free, so the time a test waits for one does not count against its timeout on a loaded machine.
    maxConcurrency: 2,
    hookTimeout: 180_000,
    // Stopping the app (web, worker, database) gracefully takes a few seconds.
    teardownTimeout: 60_000,
  },
});
