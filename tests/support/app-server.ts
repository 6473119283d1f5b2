import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.ts';
import { skipDiskFlushes } from './throwaway-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    dataDir: string;
    /** The app's own (embedded) database, for the few tests that must arrange what no page or API offers, e.g. an expired link. */
    appDatabaseUrl: string;
  }
}

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const START_TIMEOUT_MS = 150_000;

/**
 * Starts FinFlow exactly as `npm start` does (scripts/start.ts), on free ports
 * and a fresh data folder, and waits for /healthz. Stops it with SIGTERM after the run.
 * The end-to-end suite (tests/e2e) runs against the demo book; tests/e2e-empty
 * against an install without it (`seedDemo: false`, app-server-empty.ts).
 */
export default async function setup(project: TestProject) {
  return startApp(project, { seedDemo: true });
}

export async function startApp(project: TestProject, { seedDemo }: { seedDemo: boolean }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-e2e-'));
  const port = await freePort();
  const adminEmail = 'e2e-admin@finflow.local';
  const adminPassword = 'E2e-admin-password-1';
  const baseUrl = `http://localhost:${port}`;
  const databasePort = await freePort();

  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      EMBEDDED_PG_PORT: String(databasePort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      APP_URL: baseUrl,
      SEED_DEMO: String(seedDemo),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`FinFlow exited during start:\n${output.join('')}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`, { headers: { Connection: 'close' } });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`FinFlow did not become healthy in time:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  project.provide('baseUrl', baseUrl);
  project.provide('adminEmail', adminEmail);
  project.provide('adminPassword', adminPassword);
  project.provide('dataDir', dataDir);
  // db/embedded.ts keeps the database user 'finflow' and its generated password in DATA_DIR/pg-password.
  const databasePassword = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const appDatabaseUrl = `postgres://finflow:${encodeURIComponent(databasePassword)}@127.0.0.1:${databasePort}/finflow`;
  project.provide('appDatabaseUrl', appDatabaseUrl);
  await skipDiskFlushes(appDatabaseUrl);

  return async () => {
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 40_000))]);
    if (code === 'timeout') child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (code !== 0 && code !== 'timeout') console.error(`FinFlow exited with ${code}:\n${output.join('')}`);
  };
}
