import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
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

  it('stops with one clear line when EMBEDDED_PG_PORT is set to a port that is taken', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-start-'));
    const holder = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', () => resolve()));
    try {
      const run = runStart({ DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(port), SEED_DEMO: 'false' });
      expect(await run.exited).toBe(1);
      const lines = run.output().stderr.trim().split('\n');
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^\\[finflow\\] The embedded database cannot listen on port ${port} \\(EMBEDDED_PG_PORT\\): it is taken`))]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('starts a second FinFlow beside a running one when EMBEDDED_PG_PORT is unset: each takes its own free port', async () => {
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-start-')));
    const runs: Array<ReturnType<typeof runStart>> = [];
    try {
      const ports: number[] = [];
      for (const dataDir of dirs) {
        const port = await freePort();
        const run = runStart({ DATA_DIR: dataDir, PORT: String(port), SEED_DEMO: 'false' }, /web listening/);
        runs.push(run);
        await Promise.race([run.matched, run.exited]);
        expect(run.child.exitCode, run.output().stderr).toBeNull();
        const health = await fetch(`http://localhost:${port}/healthz`, { headers: { Connection: 'close' } });
        expect(health.status).toBe(200);
        ports.push(Number(/embedded PostgreSQL listening on 127\.0\.0\.1:(\d+)/.exec(run.output().stdout)?.[1]));
      }
      expect(ports.every((port) => port > 0)).toBe(true);
      expect(ports[0]).not.toBe(ports[1]);
      // The first is still up beside the second.
      expect(runs[0].child.exitCode).toBeNull();
    } finally {
      for (const run of runs) run.child.kill('SIGTERM');
      for (const run of runs) expect(await run.exited).toBe(0);
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('keeps the data between a stop and a second start, and creates the first admin only once', async () => {
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
  }, 120_000);
});
