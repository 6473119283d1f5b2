import type { TestProject } from 'vitest/node';
import { startApp } from './app-server.ts';

/** FinFlow as a new install starts it with SEED_DEMO=false (the docker compose default): reference data, no book. */
export default async function setup(project: TestProject) {
  return startApp(project, { seedDemo: false });
}
