import { defineConfig } from 'vitest/config';

// Unit and integration tests: beside the code, against a real PostgreSQL that
// tests/support/global-db.ts starts for the run (one fresh database per file).
export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'db/**/*.test.ts', 'worker/**/*.test.ts', 'emails/**/*.test.ts', 'scripts/**/*.test.ts', 'server.test.ts'],
    globalSetup: ['tests/support/global-db.ts'],
    setupFiles: ['tests/support/database-per-file.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
