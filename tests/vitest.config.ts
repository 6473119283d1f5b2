import { defineConfig } from 'vitest/config';

// End-to-end: the real app started as `npm start` would start it (tests/support/app-server.ts),
// driven in Debian's Chromium through playwright-core.
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/support/app-server.ts'],
    pool: 'forks',
    // One app, one browser per file; files run one after another so they do not fight for 2 cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Stopping the app (web, worker, database) gracefully takes a few seconds.
    teardownTimeout: 60_000,
  },
});
