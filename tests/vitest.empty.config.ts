import { defineConfig } from 'vitest/config';

// End-to-end on an empty install: the app started as `npm start` starts it with SEED_DEMO=false
// (tests/support/app-server-empty.ts), so nothing the demo book brings can hide what a first day needs.
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    include: ['tests/e2e-empty/**/*.test.ts'],
    globalSetup: ['tests/support/app-server-empty.ts'],
    pool: 'forks',
    // The files share one process (and with it one Chromium, tests/support/browser.ts) instead of
    // starting a process, loading Playwright and launching a browser for each of them.
    isolate: false,
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
  },
});
