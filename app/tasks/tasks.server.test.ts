import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { loader as pendingLoader } from '../routes/api.pending-tasks.ts';
import { action as taskAction, loader as taskLoader } from '../routes/api.tasks.$taskId.ts';
import { action as tasksAction, loader as tasksLoader } from '../routes/api.tasks.ts';
import { scheduleFirstStep } from '../workflows/engine.server.ts';
import { dueDateToIso } from './schemas.ts';
import { createTask, getTask, listTasks, pendingTasksOf, taskTabCounts, updateTask } from './tasks.server.ts';
import { createTestUser } from '../../tests/factories.ts';

type Role = 'user' | 'manager' | 'admin' | 'super_admin';
const actorOf = (row: { id: string; role: Role }) => ({ id: row.id, role: row.role });

async function newActor(role: Role = 'user') {
  return actorOf(await createTestUser({ role }));
}

async function newTask(actor: { id: string; role: Role }, input: Record<string, unknown> = {}) {
  return createTask({ actor, input: { title: `Zadatak ${randomUUID().slice(0, 6)}`, type: 'manual_review', ...input }, ip: '10.1.1.1' });
}

/** The whole stored row and its activity, to prove a refusal changed nothing. */
async function snapshot(id: string) {
  const row = await selectOne(`SELECT * FROM tasks WHERE id = :id`, { id });
  const logs = await selectRows(`SELECT id FROM activity_logs WHERE entity_id = :id ORDER BY id`, { id });
  return { row, logs };
}

describe('creating a task', () => {
  it('stores the fields with priority medium by default and logs task_created with the IP', async () => {
    const actor = await newActor();
    const task = await newTask(actor, { title: '  Nazvati kupca ', description: 'Dogovor oko plaćanja', type: 'customer_contact', assignedTo: actor.id, dueDate: '2030-03-15' });
    expect(task).toMatchObject({
      title: 'Nazvati kupca',
      description: 'Dogovor oko plaćanja',
      type: 'customer_contact',
      priority: 'medium',
      status: 'pending',
      assignedTo: actor.id,
      assignedToName: 'Test User',
      completedAt: null,
      createdBy: actor.id,
      isLate: false,
      workflowInstanceId: null,
    });
    // A date means the end of that day in Zagreb (CET in March: UTC+1).
    expect(task.dueDate).toBe('2030-03-15T22:59:59.999Z');
    const [log] = await activityRows('task_created', task.id);
    expect(log).toMatchObject({ user_id: actor.id, ip_address: '10.1.1.1', details: { title: 'Nazvati kupca', type: 'customer_contact', priority: 'medium' } });
  });

  it('links an existing entity and refuses one that does not exist', async () => {
    const actor = await newActor();
    const { rows } = await execute<{ id: string }>(`INSERT INTO clients (company_name, oib) VALUES ('Veza d.o.o.', '69435151530') RETURNING id`);
    const task = await newTask(actor, { entityType: 'client', entityId: rows[0].id });
    expect(task).toMatchObject({ entityType: 'client', entityId: rows[0].id, entityLabel: 'Veza d.o.o.', entityHref: `/clients/${rows[0].id}` });
    const failure = await apiFailure(newTask(actor, { entityType: 'invoice', entityId: randomUUID() }));
    expect(failure).toMatchObject({ status: 400, body: { errors: { entityId: ['The linked record does not exist'] } } });
  });

  it.each([
    [{ title: '' }, 'title', 'Title is required'],
    [{ title: 'x'.repeat(256) }, 'title', 'At most 255 characters'],
    [{ type: undefined }, 'type', 'Task type is required'],
    [{ type: 'coffee' }, 'type', 'Invalid task type'],
    [{ priority: 'whenever' }, 'priority', 'Invalid priority'],
    [{ dueDate: '2030-02-30' }, 'dueDate', 'Invalid due date'],
    [{ entityType: 'client' }, 'entityId', 'Entity type and entity id go together'],
    [{ assignedTo: randomUUID() }, 'assignedTo', 'Assignee not found'],
    [{ description: 'x'.repeat(5001) }, 'description', 'At most 5000 characters'],
  ])('refuses %j with 400 on %s and stores nothing', async (input, field, message) => {
    const actor = await newActor();
    const before = (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM tasks'))!.n;
    const failure = await apiFailure(newTask(actor, input));
    expect(failure.status).toBe(400);
    expect(failure.body.errors?.[field]).toEqual([message]);
    expect((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM tasks'))!.n).toBe(before);
  });
});

describe('task transitions', () => {
  it('start moves pending to in_progress, gives an unassigned task to whoever starts it, and logs both', async () => {
    const creator = await newActor();
    const worker = await newActor();
    const task = await newTask(creator);
    const started = await updateTask({ actor: worker, id: task.id, input: { status: 'in_progress' }, ip: '10.2.2.2' });
    expect(started).toMatchObject({ status: 'in_progress', assignedTo: worker.id, completedAt: null });
    expect(await activityRows('task_started', task.id)).toMatchObject([{ user_id: worker.id, ip_address: '10.2.2.2', details: { from: 'pending', to: 'in_progress' } }]);
    expect(await activityRows('task_assigned', task.id)).toMatchObject([{ user_id: worker.id, details: { from: null, to: worker.id } }]);
  });

  it('complete sets completedAt from the server clock and ignores a completedAt the caller sent', async () => {
    const actor = await newActor();
    const task = await newTask(actor, { assignedTo: actor.id });
    await updateTask({ actor, id: task.id, input: { status: 'in_progress' } });
    const before = Date.now();
    const done = await updateTask({ actor, id: task.id, input: { status: 'completed', completedAt: '2001-01-01T00:00:00.000Z' } });
    expect(done.status).toBe('completed');
    const completedAt = Date.parse(done.completedAt as string);
    expect(completedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(completedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await activityRows('task_completed', task.id)).toMatchObject([{ user_id: actor.id, details: { from: 'in_progress', to: 'completed' } }]);
  });

  it('cancel is allowed from pending and from in_progress', async () => {
    const actor = await newActor();
    const pending = await newTask(actor);
    expect((await updateTask({ actor, id: pending.id, input: { status: 'cancelled' } })).status).toBe('cancelled');
    const working = await newTask(actor, { assignedTo: actor.id });
    await updateTask({ actor, id: working.id, input: { status: 'in_progress' } });
    expect((await updateTask({ actor, id: working.id, input: { status: 'cancelled' } })).status).toBe('cancelled');
    expect(await activityRows('task_cancelled', working.id)).toMatchObject([{ details: { from: 'in_progress', to: 'cancelled' } }]);
  });

  it.each([
    ['pending', { status: 'completed' }, 'Only a task in progress can be completed'],
    ['pending', { status: 'pending' }, 'A task cannot go back to pending'],
    ['in_progress', { status: 'in_progress' }, 'Only a pending task can be started'],
    ['in_progress', { status: 'pending' }, 'A task cannot go back to pending'],
    ['completed', { status: 'completed' }, 'Only a task in progress can be completed'],
    ['completed', { status: 'in_progress' }, 'Only a pending task can be started'],
    ['completed', { status: 'cancelled' }, 'Only a pending or in-progress task can be cancelled'],
    ['completed', { title: 'Novi naslov' }, 'Only pending or in-progress tasks can be changed'],
    ['cancelled', { status: 'in_progress' }, 'Only a pending task can be started'],
    ['cancelled', { notes: 'kasno' }, 'Only pending or in-progress tasks can be changed'],
  ] as const)('a %s task refuses %j with 409 and nothing changes', async (from, input, message) => {
    const actor = await newActor();
    const task = await newTask(actor, { assignedTo: actor.id });
    if (from !== 'pending') await updateTask({ actor, id: task.id, input: { status: from === 'cancelled' ? 'cancelled' : 'in_progress' } });
    if (from === 'completed') await updateTask({ actor, id: task.id, input: { status: 'completed' } });
    const before = await snapshot(task.id);
    const failure = await apiFailure(updateTask({ actor, id: task.id, input }));
    expect(failure).toMatchObject({ status: 409, body: { message } });
    expect(await snapshot(task.id)).toEqual(before);
  });

  it('answers 404 for an unknown task and 400 for an empty change', async () => {
    const actor = await newActor();
    expect((await apiFailure(updateTask({ actor, id: randomUUID(), input: { status: 'in_progress' } }))).status).toBe(404);
    // The /tasks page posts the id from a form: anything that is no UUID is 404 too, not a SQL error.
    expect((await apiFailure(updateTask({ actor, id: 'abc', input: { status: 'in_progress' } }))).status).toBe(404);
    const task = await newTask(actor);
    expect(await apiFailure(updateTask({ actor, id: task.id, input: { completedAt: '2020-01-01' } }))).toMatchObject({
      status: 400,
      body: { message: 'Nothing to update', errors: { status: ['Nothing to update'] } },
    });
  });
});

describe('editing a task', () => {
  it('changes title, description, priority, assignee, due date and notes while open, logging old → new', async () => {
    const actor = await newActor();
    const other = await newActor();
    const task = await newTask(actor, { title: 'Stari', description: 'Opis', notes: 'n1', dueDate: '2030-01-10' });
    await updateTask({ actor, id: task.id, input: { status: 'in_progress' } });
    const edited = await updateTask({
      actor,
      id: task.id,
      input: { title: 'Novi', description: '', priority: 'urgent', assignedTo: other.id, dueDate: '2030-07-01', notes: 'n2' },
      ip: '10.3.3.3',
    });
    expect(edited).toMatchObject({ title: 'Novi', description: null, priority: 'urgent', assignedTo: other.id, notes: 'n2', status: 'in_progress' });
    // CEST in July: UTC+2.
    expect(edited.dueDate).toBe('2030-07-01T21:59:59.999Z');
    const [updated] = await activityRows('task_updated', task.id);
    expect(updated.details).toMatchObject({
      changes: {
        title: { old: 'Stari', new: 'Novi' },
        description: { old: 'Opis', new: null },
        priority: { old: 'medium', new: 'urgent' },
        dueDate: { old: dueDateToIso('2030-01-10'), new: '2030-07-01T21:59:59.999Z' },
        notes: { old: 'n1', new: 'n2' },
      },
    });
    const assigned = await activityRows('task_assigned', task.id);
    expect(assigned.at(-1)).toMatchObject({ ip_address: '10.3.3.3', details: { from: actor.id, to: other.id } });
  });

  it('an edit with nothing different writes no activity row', async () => {
    const actor = await newActor();
    const task = await newTask(actor, { title: 'Isto' });
    await updateTask({ actor, id: task.id, input: { title: 'Isto' } });
    expect(await activityRows('task_updated', task.id)).toEqual([]);
  });
});

describe('listing tasks', () => {
  it('filters by assignee (me, unassigned), priority and q, and the tab counts equal SQL under the same filters', async () => {
    const me = await newActor();
    const other = await newActor();
    const tag = `Oznaka${randomUUID().slice(0, 6)}`;
    const mine = await newTask(me, { title: `${tag} moj hitni`, priority: 'urgent', assignedTo: me.id });
    const mineLow = await newTask(me, { title: `${tag} moj`, priority: 'low', assignedTo: me.id, description: 'traži SKRIVENO' });
    const loose = await newTask(me, { title: `${tag} ničiji`, priority: 'urgent' });
    const theirs = await newTask(me, { title: `${tag} tuđi`, assignedTo: other.id });
    await updateTask({ actor: me, id: mineLow.id, input: { status: 'in_progress' } });
    await updateTask({ actor: me, id: mineLow.id, input: { status: 'completed' } });

    const ids = async (options: Parameters<typeof listTasks>[0]) => (await listTasks(options)).tasks.map((task) => task.id).sort();
    expect(await ids({ q: tag, assignee: 'me', actorId: me.id })).toEqual([mine.id, mineLow.id].sort());
    expect(await ids({ q: tag, assignee: 'unassigned', actorId: me.id })).toEqual([loose.id]);
    expect(await ids({ q: tag, assignee: other.id, actorId: me.id })).toEqual([theirs.id]);
    expect(await ids({ q: tag, priority: 'urgent', actorId: me.id })).toEqual([mine.id, loose.id].sort());
    expect(await ids({ q: 'skriveno', actorId: me.id })).toEqual([mineLow.id]);
    expect(await ids({ q: tag, status: 'completed', actorId: me.id })).toEqual([mineLow.id]);
    const page = await listTasks({ q: tag, actorId: me.id, limit: 2, offset: 0 });
    expect(page.total).toBe(4);
    expect(page.tasks.map((task) => task.id)).toEqual([theirs.id, loose.id]);

    for (const filters of [{ q: tag }, { q: tag, assignee: 'me' }, { priority: 'urgent' }, {}]) {
      const counts = await taskTabCounts({ ...filters, actorId: me.id });
      const rows = await selectRows<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM tasks
          WHERE (CAST(:q AS text) IS NULL OR title ILIKE :like OR description ILIKE :like)
            AND (CAST(:priority AS text) IS NULL OR priority = :priority)
            AND (CAST(:me AS uuid) IS NULL OR assigned_to = :me)
          GROUP BY status`,
        {
          q: filters.q ?? null,
          like: `%${filters.q ?? ''}%`,
          priority: 'priority' in filters ? filters.priority : null,
          me: 'assignee' in filters ? me.id : null,
        },
      );
      const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
      expect(counts).toEqual({
        all: rows.reduce((sum, row) => sum + row.n, 0),
        pending: of('pending'),
        in_progress: of('in_progress'),
        completed: of('completed'),
      });
      expect((await listTasks({ ...filters, actorId: me.id, limit: 1 })).total).toBe(counts.all);
    }
  });

  it('refuses an unknown status, priority or assignee filter with 400', async () => {
    const me = await newActor();
    expect((await apiFailure(listTasks({ status: 'done', actorId: me.id }))).status).toBe(400);
    expect((await apiFailure(listTasks({ priority: 'asap', actorId: me.id }))).status).toBe(400);
    expect((await apiFailure(listTasks({ assignee: 'boss', actorId: me.id }))).status).toBe(400);
  });

  it('marks open tasks past their due date as late, never completed ones', async () => {
    const me = await newActor();
    const late = await newTask(me, { assignedTo: me.id, dueDate: '2020-01-01' });
    const done = await newTask(me, { assignedTo: me.id, dueDate: '2020-01-01' });
    await updateTask({ actor: me, id: done.id, input: { status: 'in_progress' } });
    await updateTask({ actor: me, id: done.id, input: { status: 'completed' } });
    expect(late.isLate).toBe(true);
    expect((await getTask(done.id)).isLate).toBe(false);
  });
});

describe('pending tasks of the signed-in user', () => {
  it("returns only the caller's pending and in-progress tasks, latest due first, undated last", async () => {
    const me = await newActor();
    const other = await newActor();
    const undated = await newTask(me, { assignedTo: me.id, priority: 'high' });
    const early = await newTask(me, { assignedTo: me.id, dueDate: '2030-01-01' });
    const later = await newTask(me, { assignedTo: me.id, dueDate: '2031-01-01' });
    const working = await newTask(me, { assignedTo: me.id, dueDate: '2030-06-01' });
    await updateTask({ actor: me, id: working.id, input: { status: 'in_progress' } });
    const done = await newTask(me, { assignedTo: me.id });
    await updateTask({ actor: me, id: done.id, input: { status: 'in_progress' } });
    await updateTask({ actor: me, id: done.id, input: { status: 'completed' } });
    const cancelled = await newTask(me, { assignedTo: me.id });
    await updateTask({ actor: me, id: cancelled.id, input: { status: 'cancelled' } });
    await newTask(me, { assignedTo: other.id });
    await newTask(me);

    const { tasks, total } = await pendingTasksOf(me.id);
    expect(tasks.map((task) => task.id)).toEqual([later.id, working.id, early.id, undated.id]);
    expect(total).toBe(4);
    expect(tasks[3]).toEqual({ id: undated.id, title: undated.title, description: null, priority: 'high' });

    const response = await pendingLoader({ request: getRequest('/api/pending-tasks', await signedInCookie(me.id)), params: {}, context: {} });
    expect(response.headers.get('X-Total-Count')).toBe('4');
    expect(((await response.json()) as { id: string }[]).map((task) => task.id)).toEqual(tasks.map((task) => task.id));
  });
});

describe('a workflow manual task', () => {
  async function instanceWaitingOnTask() {
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO workflow_definitions (name, type, steps) VALUES ('Verifikacija', 'invoice_verification', CAST(:steps AS jsonb)) RETURNING id`,
      {
        steps: JSON.stringify([
          { name: 'Ručna verifikacija', type: 'manual', taskType: 'manual_review' },
          { name: 'Potvrda', type: 'manual', taskType: 'document_review' },
        ]),
      },
    );
    const instance = await execute<{ id: string }>(
      `INSERT INTO workflow_instances (workflow_id, entity_type, entity_id, steps)
       SELECT id, 'invoice', :entityId, steps FROM workflow_definitions WHERE id = :id RETURNING id`,
      { id: rows[0].id, entityId: randomUUID() },
    );
    const instanceId = instance.rows[0].id;
    await inTransaction((transaction) => scheduleFirstStep(instanceId, transaction));
    const [task] = await selectRows<{ id: string }>(`SELECT id FROM tasks WHERE workflow_instance_id = :instanceId AND workflow_step = 0`, { instanceId });
    return { instanceId, taskId: task.id };
  }

  it('shows its workflow and step, and completing it advances the instance in the same transaction', async () => {
    const actor = await newActor();
    const { instanceId, taskId } = await instanceWaitingOnTask();
    const detail = await getTask(taskId);
    expect(detail).toMatchObject({
      workflowInstanceId: instanceId,
      workflowStep: 0,
      workflowStepName: 'Ručna verifikacija',
      workflowStepCount: 2,
      workflowName: 'Verifikacija',
      workflow: { instanceId, stepIndex: 0, stepCount: 2, status: 'running', href: '/workflows?tab=instances' },
    });

    await updateTask({ actor, id: taskId, input: { status: 'in_progress' } });
    await updateTask({ actor, id: taskId, input: { status: 'completed' } });
    const instance = await selectOne<{ current_step: number; status: string }>(`SELECT current_step, status FROM workflow_instances WHERE id = :instanceId`, { instanceId });
    expect(instance).toEqual({ current_step: 1, status: 'running' });
    const next = await selectRows<{ title: string; status: string }>(`SELECT title, status FROM tasks WHERE workflow_instance_id = :instanceId AND workflow_step = 1`, {
      instanceId,
    });
    expect(next).toEqual([{ title: 'Potvrda', status: 'pending' }]);
    expect(await activityRows('workflow_step_completed', instanceId)).toMatchObject([{ user_id: actor.id, details: { taskId, stepIndex: 0 } }]);
  });

  it('a refused completion leaves the instance where it was', async () => {
    const actor = await newActor();
    const { instanceId, taskId } = await instanceWaitingOnTask();
    // Still pending: completing is refused, so the engine is never asked.
    expect((await apiFailure(updateTask({ actor, id: taskId, input: { status: 'completed' } }))).status).toBe(409);
    const instance = await selectOne<{ current_step: number }>(`SELECT current_step FROM workflow_instances WHERE id = :instanceId`, { instanceId });
    expect(instance?.current_step).toBe(0);
  });
});

describe('the task API', () => {
  it('POST 201, GET list with X-Total-Count and filters, GET one, PUT transitions (409 refused), 404 unknown', async () => {
    const user = await createTestUser({ role: 'user' });
    const cookie = await signedInCookie(user.id);
    const context = {};
    const tag = `Api${randomUUID().slice(0, 6)}`;

    const created = await tasksAction({
      request: jsonRequest('/api/tasks', { title: `${tag} poziv`, type: 'customer_contact', priority: 'high', assignedTo: user.id }, cookie),
      params: {},
      context,
    });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { id: string; priority: string; status: string };
    expect(task).toMatchObject({ priority: 'high', status: 'pending' });

    const invalid = await apiFailure(tasksAction({ request: jsonRequest('/api/tasks', { type: 'manual_review' }, cookie), params: {}, context }));
    expect(invalid).toMatchObject({ status: 400, body: { errors: { title: ['Title is required'] } } });

    const list = await tasksLoader({ request: getRequest(`/api/tasks?q=${tag}&assignee=me&priority=high&status=pending`, cookie), params: {}, context });
    expect(list.headers.get('X-Total-Count')).toBe('1');
    expect(((await list.json()) as { id: string }[]).map((row) => row.id)).toEqual([task.id]);
    await expect(apiFailure(tasksLoader({ request: getRequest('/api/tasks?status=done', cookie), params: {}, context }))).resolves.toMatchObject({ status: 400 });

    const one = await taskLoader({ request: getRequest(`/api/tasks/${task.id}`, cookie), params: { taskId: task.id }, context });
    expect(await one.json()).toMatchObject({ id: task.id, history: [{ action: 'task_created' }] });

    const put = (body: unknown) => taskAction({ request: jsonRequest(`/api/tasks/${task.id}`, body, cookie, 'PUT'), params: { taskId: task.id }, context });
    expect((await put({ status: 'in_progress' })).status).toBe(200);
    const done = await put({ status: 'completed', completedAt: '1999-12-31T23:59:59Z' });
    expect(done.status).toBe(200);
    expect(Date.parse(((await done.json()) as { completedAt: string }).completedAt)).toBeGreaterThan(Date.parse('2020-01-01'));
    await expect(apiFailure(put({ status: 'completed' }))).resolves.toMatchObject({ status: 409 });
    await expect(apiFailure(put({ priority: 'low' }))).resolves.toMatchObject({ status: 409 });

    await expect(apiFailure(taskLoader({ request: getRequest(`/api/tasks/${randomUUID()}`, cookie), params: { taskId: randomUUID() }, context }))).resolves.toMatchObject({
      status: 404,
    });
    const wrongMethod = await taskAction({ request: jsonRequest(`/api/tasks/${task.id}`, {}, cookie, 'DELETE'), params: { taskId: task.id }, context });
    expect(wrongMethod.status).toBe(405);
  });
});
