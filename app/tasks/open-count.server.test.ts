import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestUser } from '../../tests/factories.ts';
import { toPublicUser } from '../auth/user-record.server.ts';
import { loadShell } from '../shell.server.ts';
import { openTaskCount } from './open-count.server.ts';
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
