import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// Unit and integration tests: beside the code, against a real PostgreSQL that
// tests/support/global-db.ts starts for the run (one fresh database per file).
const root = path.dirname(new URL(import.meta.url).pathname);
const include = ['app/**/*.test.{ts,tsx}', 'db/**/*.test.ts', 'worker/**/*.test.ts', 'emails/**/*.test.ts', 'scripts/**/*.test.ts', 'server.test.ts'];

/**
 * Test files that replace a module (vi.mock, vi.doMock). A replacement stays registered in the
 * process after its file ends, so these files keep a process of their own each.
 */
const replacingModules = ['app', 'db', 'worker', 'emails', 'scripts']
  .flatMap((dir) => fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => `${dir}/${file}`))
  .concat('server.test.ts')
  .filter((file) => /^(app\/.*\.test\.tsx?|.*\.test\.ts)$/.test(file) && /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(path.join(root, file), 'utf8')));

const perFile = {
  globalSetup: ['tests/support/global-db.ts'],
  setupFiles: ['tests/support/database-per-file.ts'],
  pool: 'forks' as const,
  // Two files at once on a machine that others share too: the slowest CPU-bound tests (scrypt sign-ins,
  // the Java rules) took up to 28 s under load one file at a time. A hang still fails, later.
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    // One file per core (Vitest's default leaves one core free, so a 2-core machine ran one file at a
    // time): a file spends much of its time waiting for PostgreSQL or a child process, not computing.
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        extends: true,
        // The files share their worker process: the packages load once per worker instead of once per
        // file (about a third of the suite's time). database-per-file.ts gives each file fresh
        // application modules, the starting environment and real timers.
        test: { name: 'unit', include, exclude: [...configDefaults.exclude, ...replacingModules], isolate: false, ...perFile },
      },
      ...(replacingModules.length ? [{ extends: true as const, test: { name: 'unit (own process)', include: replacingModules, isolate: true, ...perFile } }] : []),
    ],
  },
});
