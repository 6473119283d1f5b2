import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute } from '../db.server.ts';
import type { Task } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Completes the open tasks (pending or in progress) that `where` picks, each
 * locked, when a decision elsewhere was their work (a KYC decision, a
 * workflow step's decision): in the decider's name (an unassigned task
 * becomes theirs), each with its `task_completed` activity row carrying
 * `details`. Runs in the caller's transaction; returns the tasks' ids.
 */
export async function completeOpenTasks(
  filter: { where: string; replacements: Record<string, unknown> },
  by: { actor: Actor; ip?: string | null },
  details: Record<string, unknown>,
  transaction: Transaction,
): Promise<string[]> {
  const { rows } = await execute<RowOf<typeof Task, 'id' | 'title' | 'status'>>(
    `UPDATE tasks t SET status = 'completed', completed_at = now(), assigned_to = coalesce(t.assigned_to, :actorId)
       FROM (SELECT id, status FROM tasks WHERE ${filter.where} AND status IN ('pending', 'in_progress') FOR UPDATE) old
      WHERE t.id = old.id
      RETURNING t.id, t.title, old.status`,
    { ...filter.replacements, actorId: by.actor.id },
    { transaction },
  );
  for (const task of rows) {
    await logActivity(
      {
        action: 'task_completed',
        userId: by.actor.id,
        entityType: 'task',
        entityId: task.id,
        ipAddress: by.ip,
        details: { title: task.title, from: task.status, to: 'completed', ...details },
      },
      transaction,
    );
  }
  return rows.map((task) => task.id);
}
