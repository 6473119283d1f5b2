import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * `npm run build`: the Remix build (build/index.js, public/build/), then the
 * web server (server.ts) and the worker (worker/index.ts) compiled to plain
 * JavaScript in build/server.js and build/worker.js, which `npm start`, the
 * Dockerfile and the benchmark run. Production then loads no TypeScript
 * compiler and transforms nothing at start (docs/benchmarks.md, start to
 * /healthz). Packages stay external: node_modules sits beside the build, in
 * the repository and in the image alike.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const WEB_ENTRY = 'build/server.js';
export const WORKER_ENTRY = 'build/worker.js';

export async function buildServer() {
  await build({
    absWorkingDir: root,
    entryPoints: { server: path.join(root, 'server.ts'), worker: path.join(root, 'worker/index.ts') },
    outdir: path.join(root, 'build'),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

export async function buildAll() {
  const remix = spawnSync(process.execPath, [path.join(root, 'node_modules/@remix-run/dev/dist/cli.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (remix.status !== 0) throw new Error('remix build failed');
  await buildServer();
}

/** Builds when any part of the build is missing (a fresh clone); an existing build is used as it is. */
export async function ensureBuild(log: (line: string) => void) {
  if (['build/index.js', WEB_ENTRY, WORKER_ENTRY].every((file) => fs.existsSync(path.join(root, file)))) return;
  log('no build found; building (npm run build)…');
  await buildAll();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll();
}
