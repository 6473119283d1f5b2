import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../tests/support/free-port.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Runs `npm start`'s script with `env`; resolves when `until` matches the output or the process ends. */
function runStart(env: Record<string, string>, until?: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const matched = new Promise<void>((resolve) => {
    const check = () => until && until.test(stdout) && resolve();
    child.stdout!.on('data', (chunk) => ((stdout += String(chunk)), check()));
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  });
  return { child, exited, matched, output: () => ({ stdout, stderr }) };
}

describe('npm start', () => {
  it('stops with one clear line when the environment is invalid', async () => {
    const run = runStart({ PORT: 'abc' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr.trim()).toBe('Invalid environment: PORT must be a port number (got "abc")');
  });

  it(
    'keeps the data between a stop and a second start, and creates the first admin only once',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-start-'));
      const env = {
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        EMBEDDED_PG_PORT: String(await freePort()),
        SEED_DEMO: 'false',
        ADMIN_EMAIL: 'first@finflow.local',
      };
      try {
        const first = runStart(env, /web listening/);
        await Promise.race([first.matched, first.exited]);
        expect(first.output().stdout).toMatch(/created super_admin first@finflow\.local/);
        expect(first.output().stdout).toMatch(/its password \(shown once/);
        const health = await fetch(`http://localhost:${env.PORT}/healthz`, { headers: { Connection: 'close' } });
        expect(health.status).toBe(200);
        first.child.kill('SIGTERM');
        expect(await first.exited).toBe(0);

        const second = runStart(env, /web listening/);
        await Promise.race([second.matched, second.exited]);
        expect(second.output().stdout).not.toMatch(/created super_admin/);
        const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
        const client = new pg.Client({ host: '127.0.0.1', port: Number(env.EMBEDDED_PG_PORT), user: 'finflow', password, database: 'finflow' });
        await client.connect();
        const { rows } = await client.query("SELECT email FROM users WHERE role = 'super_admin'");
        await client.end();
        expect(rows).toEqual([{ email: 'first@finflow.local' }]);
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
