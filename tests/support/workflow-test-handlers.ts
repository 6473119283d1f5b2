import { logActivity } from '../../app/activity-log.server.ts';
import { execute, selectOne } from '../../app/db.server.ts';
import { registerStepHandlers } from '../../app/workflows/handlers/index.server.ts';
import type { StepContext, StepOutcome } from '../../app/workflows/types.ts';

/**
 * Step handlers that exist only for the engine's own tests, never in the
 * production registry. Importing this module registers them in this
 * process: a test file imports it, and the real worker process of
 * tests/support/worker-process.ts loads it with `--import` (option
 * `testHandlers`). Steered by the instance's context:
 * - testEffect writes one 'workflow_test_effect' activity row (the effect a
 *   test counts) and then, with context.blockOnLock, waits for that advisory
 *   lock, so a test can hold a worker in the middle of the step and kill it;
 * - testFlaky fails until context.failTimes failed runs of its step exist.
 */
async function testEffect({ instance, stepIndex, transaction }: StepContext): Promise<StepOutcome> {
  await logActivity({ action: 'workflow_test_effect', userId: null, entityType: 'workflow_instance', entityId: instance.id, details: { stepIndex } }, transaction);
  const lock = Number(instance.context.blockOnLock);
  if (Number.isInteger(lock) && lock > 0) await execute(`SELECT pg_advisory_xact_lock(:lock)`, { lock }, { transaction });
  return { summary: 'test effect written' };
}

async function testFlaky({ instance, stepIndex, transaction }: StepContext): Promise<StepOutcome> {
  const failed = await selectOne<{ n: number }>(
    `SELECT count(*)::int AS n FROM workflow_step_runs WHERE instance_id = :id AND step_index = :stepIndex AND status = 'failed'`,
    { id: instance.id, stepIndex },
    { transaction },
  );
  const failTimes = Number(instance.context.failTimes ?? 0);
  if ((failed?.n ?? 0) < failTimes) throw new Error(`flaky step failing on purpose (${(failed?.n ?? 0) + 1}/${failTimes})`);
  await logActivity({ action: 'workflow_test_effect', userId: null, entityType: 'workflow_instance', entityId: instance.id, details: { stepIndex } }, transaction);
  return { summary: 'flaky step succeeded' };
}

registerStepHandlers({ testEffect, testFlaky });
