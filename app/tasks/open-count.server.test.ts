import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestUser } from '../../tests/factories.ts';
import { toPublicUser } from '../auth/user-record.server.ts';
import { loadShell } from '../shell.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { compactOpenTaskCounts, openTaskCount } from './open-count.server.ts';
import { createTask, pendingTasksOf, updateTask } from './tasks.server.ts';

async function openTasksFor(count: number) {
  const user = toPublicUser(await createTestUser({ role: 'user' }));
  const actor = { id: user.id, role: 'user' as const };
  const tasks = [];
  for (let index = 0; index < count; index += 1) {
    tasks.push(await createTask({ actor, input: { title: `Zadatak ${randomUUID().slice(0, 6)}`, type: 'manual_review', assignedTo: user.id }, ip: '10.1.1.1' }));
  }
  return { user, actor, tasks };
}

describe("a user's open task count", () => {
  it("is the same figure for the frame's bell and the dashboard's list, read once for a page and afresh for the next", async () => {
    const { user, actor, tasks } = await openTasksFor(3);
    const page = new Request('http://localhost/');
    const [shell, list] = await Promise.all([loadShell(user, page), pendingTasksOf(user.id, { limit: 10, request: page })]);
    expect(shell.openTaskCount).toBe(3);
    expect(list.total).toBe(3);

    await updateTask({ actor, id: tasks[0].id, input: { status: 'in_progress' } });
    await updateTask({ actor, id: tasks[0].id, input: { status: 'completed' } });
    // The page read already counted; the next page sees the change.
    expect(await openTaskCount(user.id, page)).toBe(3);
    expect((await loadShell(user, new Request('http://localhost/'))).openTaskCount).toBe(2);
  });

  it('is counted afresh for a form post and without a request, and never given to another user of the same request', async () => {
    const first = await openTasksFor(2);
    const second = await openTasksFor(3);
    const post = new Request('http://localhost/tasks', { method: 'POST' });
    expect(await openTaskCount(first.user.id, post)).toBe(2);
    await updateTask({ actor: first.actor, id: first.tasks[0].id, input: { status: 'cancelled' } });
    expect(await openTaskCount(first.user.id, post)).toBe(1);
    expect(await openTaskCount(first.user.id)).toBe(1);

    const page = new Request('http://localhost/');
    expect(await openTaskCount(first.user.id, page)).toBe(1);
    expect(await openTaskCount(second.user.id, page)).toBe(3);
    expect(await openTaskCount(first.user.id, page)).toBe(1);
  });
});

/**
 * The count is kept by the database per user (db/migrations/2026.11.29T08.00.00.workflow-and-task-totals.ts): it must equal
 * counting each user's tasks whatever statements changed them, concurrent writers and compaction included.
 */
describe('the open task counts the database keeps', () => {
  /** Every user's count as read and as counted from the tasks, for the users given. */
  async function expectCountsMatchTheTasks(userIds: string[]) {
    const counted = await selectRows<{ id: string; n: number }>(
      `SELECT u.id, count(t.id)::int AS n FROM users u
         LEFT JOIN tasks t ON t.assigned_to = u.id AND t.status IN ('pending', 'in_progress')
        WHERE u.id IN (:userIds) GROUP BY u.id`,
      { userIds },
    );
    expect(Object.fromEntries(await Promise.all(userIds.map(async (id) => [id, await openTaskCount(id)])))).toEqual(Object.fromEntries(counted.map((row) => [row.id, row.n])));
  }
  const deltaRows = async () => (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM open_task_deltas'))!.n;

  it('equal the tasks after inserts, status changes, reassignments, deletes, rollbacks and compaction', async () => {
    const first = await openTasksFor(2);
    const second = await openTasksFor(1);
    const leaving = await openTasksFor(3);
    const users = [first.user.id, second.user.id, leaving.user.id];
    await expectCountsMatchTheTasks(users);
    // Many at once, open and closed, and unassigned ones.
    await execute(
      `INSERT INTO tasks (title, type, status, assigned_to, completed_at)
       SELECT 'Skupni ' || g, 'manual_review', (ARRAY['pending', 'in_progress', 'completed', 'cancelled'])[1 + g % 4],
              CASE WHEN g % 5 = 0 THEN NULL ELSE (ARRAY[:first, :second]::uuid[])[1 + g % 2] END,
              CASE WHEN g % 4 = 2 THEN now() END
         FROM generate_series(1, 40) g`,
      { first: first.user.id, second: second.user.id },
    );
    await expectCountsMatchTheTasks(users);
    await execute(`UPDATE tasks SET assigned_to = :second WHERE assigned_to = :first AND title LIKE 'Skupni 1%'`, { first: first.user.id, second: second.user.id });
    await execute(`UPDATE tasks SET status = 'completed', completed_at = now() WHERE title LIKE 'Skupni 2%' AND status <> 'completed'`);
    await execute(`UPDATE tasks SET status = 'pending', completed_at = NULL WHERE title LIKE 'Skupni 3%'`);
    await updateTask({ actor: first.actor, id: first.tasks[0].id, input: { status: 'cancelled' } });
    await expectCountsMatchTheTasks(users);
    // A change of something the counts do not count adds no row.
    const rows = await deltaRows();
    await execute(`UPDATE tasks SET notes = 'Nazvati ponovno', updated_at = now()`);
    expect(await deltaRows()).toBe(rows);

    const before = await openTaskCount(second.user.id);
    await expect(
      inTransaction(async (transaction) => {
        await execute(`UPDATE tasks SET assigned_to = :second`, { second: second.user.id }, { transaction });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await openTaskCount(second.user.id)).toBe(before);

    await execute(`DELETE FROM tasks WHERE title IN ('Skupni 4', 'Skupni 5', 'Skupni 6')`);
    // A user's tasks all handed back unassigned: their count is 0.
    await execute(`UPDATE tasks SET assigned_to = NULL WHERE assigned_to = :id`, { id: leaving.user.id });
    expect(await openTaskCount(leaving.user.id)).toBe(0);
    await expectCountsMatchTheTasks(users.slice(0, 2));

    expect(await deltaRows()).toBeGreaterThan(2);
    await compactOpenTaskCounts();
    // One row per user with open tasks; the rows of the user left without any summed to 0 and are gone.
    expect(await deltaRows()).toBe((await selectOne<{ n: number }>(`SELECT count(DISTINCT assigned_to)::int AS n FROM tasks WHERE status IN ('pending', 'in_progress')`))!.n);
    await expectCountsMatchTheTasks(users.slice(0, 2));

    await execute(`TRUNCATE tasks CASCADE`);
    expect(await deltaRows()).toBe(0);
    await expectCountsMatchTheTasks(users.slice(0, 2));
  });

  it('stay exact while transactions write concurrently, with compaction between them', async () => {
    const { user, actor, tasks } = await openTasksFor(6);
    await Promise.all([
      ...tasks.map((task, n) => updateTask({ actor, id: task.id, input: { status: n % 2 ? 'cancelled' : 'in_progress' } })),
      compactOpenTaskCounts(),
      openTasksFor(2),
      compactOpenTaskCounts(),
    ]);
    await expectCountsMatchTheTasks([user.id]);
    expect(await openTaskCount(user.id)).toBe(3);
  });
});
