import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;
let adminId: string;

beforeAll(async () => {
  ({ browser, admin } = await browserAndAdmin());
  adminId = String((await admin.get('/api/auth/user')).json.id);
});
afterAll(() => browser?.close());

interface TaskJson {
  id: string;
  title: string;
  status: string;
  priority: string;
  assignedTo: string | null;
  isLate: boolean;
}

function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}

/** The header bell's number (no badge = 0). */
async function bellCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notification-count');
  if ((await badge.count()) === 0) return 0;
  return Number(await badge.textContent());
}

async function total(path: string): Promise<number> {
  const response = await admin.get(path);
  expect(response.status).toBe(200);
  return Number(response.headers.get('x-total-count'));
}

describe('task management', () => {
  it('creates a task assigned to me (the bell counts it), starts and completes it, and finds it in the completed tab', async () => {
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/tasks`);
    await page.getByRole('heading', { level: 2, name: 'Task Management' }).waitFor();
    await page.waitForLoadState('networkidle');
    const openBefore = await total('/api/pending-tasks?limit=1');
    expect(await bellCount(page)).toBe(Math.min(openBefore, 99));

    const title = `E2E zadatak ${Date.now()}`;
    await page.getByRole('link', { name: 'New task' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.waitFor();
    await dialog.getByLabel('Title *').fill(title);
    await dialog.getByLabel('Description').fill('Provjeriti ugovor o faktoringu');
    await dialog.getByLabel('Type *').selectOption('document_review');
    await dialog.getByLabel('Priority').selectOption('high');
    await dialog.getByLabel('Assignee').selectOption(adminId);
    await dialog.getByLabel('Due date').fill('2031-05-20');
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await toast(page, 'Task created successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const [created] = (await admin.get(`/api/tasks?q=${encodeURIComponent(title)}`)).json as unknown as TaskJson[];
    expect(created).toMatchObject({ title, status: 'pending', priority: 'high', assignedTo: adminId });
    await expect.poll(() => bellCount(page)).toBe(Math.min(openBefore + 1, 99));

    const card = page.locator(`[data-task-id="${created.id}"]`);
    await card.waitFor();
    await expect(card.getByTestId('task-priority').textContent()).resolves.toBe('Visoko');
    await expect(card.getByTestId('task-status').textContent()).resolves.toBe('Pending');
    await card.getByRole('button', { name: 'Start' }).click();
    await toast(page, 'Task updated successfully').waitFor();
    await expect.poll(() => card.getByTestId('task-status').textContent()).toBe('In progress');
    await card.getByRole('button', { name: 'Complete' }).click();
    await expect.poll(() => card.getByTestId('task-status').textContent()).toBe('Completed');
    await expect.poll(() => bellCount(page)).toBe(Math.min(openBefore, 99));
    const done = (await admin.get(`/api/tasks/${created.id}`)).json as unknown as TaskJson & { completedAt: string };
    expect(done.status).toBe('completed');
    expect(Date.parse(done.completedAt)).toBeGreaterThan(Date.now() - 5 * 60_000);

    await page.getByTestId('tab-completed').click();
    await page.waitForURL(/tab=completed/);
    await page.locator(`[data-task-id="${created.id}"]`).waitFor();
    await card.getByRole('link', { name: 'Details' }).click();
    const detail = page.getByTestId('task-detail');
    await detail.getByRole('heading', { name: title }).waitFor();
    await detail.getByTestId('task-history').getByText('Completed').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the late badge on a seeded overdue task, and none on a task that is not late', async () => {
    const tasks = (await admin.get('/api/tasks?status=pending&limit=1000')).json as unknown as TaskJson[];
    const late = tasks.find((task) => task.isLate);
    const onTime = tasks.find((task) => !task.isLate);
    expect(late, 'the demo data has an overdue pending task').toBeDefined();
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/tasks?tab=pending&q=${encodeURIComponent(late!.title)}`);
    const card = page.locator(`[data-task-id="${late!.id}"]`);
    await card.waitFor();
    await expect(card.getByTestId('late-badge').textContent()).resolves.toBe('Late');
    if (onTime) {
      await page.goto(`${baseUrl}/tasks?tab=pending&q=${encodeURIComponent(onTime.title)}`);
      const other = page.locator(`[data-task-id="${onTime.id}"]`);
      await other.waitFor();
      expect(await other.getByTestId('late-badge').count()).toBe(0);
    }
    await close();
  });

  it('keeps the filters and the tab in the URL; the counts match the API', async () => {
    // Tasks of this test's own, found by a marker in the title: the worker's workflow steps add tasks to the same book at any moment.
    const marker = `Filtri ${Date.now()}`;
    const make = async (priority: string, assignedTo?: string) => {
      const response = await admin.post('/api/tasks', { title: `${marker} ${priority}`, type: 'document_review', priority, ...(assignedTo ? { assignedTo } : {}) });
      expect(response.status).toBe(201);
    };
    await make('urgent');
    await make('urgent');
    await make('urgent', adminId);
    await make('high');

    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/tasks?q=${encodeURIComponent(marker)}`);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('priority-filter').selectOption('urgent');
    await page.waitForURL(/priority=urgent/);
    await page.getByTestId('assignee-filter').selectOption('unassigned');
    await page.waitForURL(/assignee=unassigned/);
    await page.getByTestId('tab-pending').click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'pending' && url.searchParams.get('priority') === 'urgent' && url.searchParams.get('assignee') === 'unassigned');

    // The URL changes before React commits the new list (navigations render in a transition), and
    // while loading the list shows placeholders: wait for the pending tab's own render with no placeholder.
    await page.locator('[data-testid="tab-pending"][aria-current="page"]').waitFor();
    await page.getByTestId('placeholder-card').first().waitFor({ state: 'detached' });
    const q = encodeURIComponent(marker);
    const expected = await total(`/api/tasks?q=${q}&priority=urgent&assignee=unassigned&status=pending&limit=1`);
    expect(expected).toBe(2);
    await expect(page.getByTestId('tab-count-pending').first().textContent()).resolves.toBe('2');
    await expect(page.getByTestId('tab-count-all').first().textContent()).resolves.toBe(String(await total(`/api/tasks?q=${q}&priority=urgent&assignee=unassigned&limit=1`)));
    const cards = page.getByTestId('task-card');
    expect(await cards.count()).toBe(2);
    for (const text of await cards.getByTestId('task-priority').allTextContents()) expect(text).toBe('Hitno');
    for (const text of await cards.getByTestId('task-assignee').allTextContents()) expect(text).toContain('Unassigned');

    // The same URL opened fresh (a reload, a shared link) shows the same list.
    await page.reload();
    await expect(page.getByTestId('priority-filter').inputValue()).resolves.toBe('urgent');
    await expect(page.getByTestId('assignee-filter').inputValue()).resolves.toBe('unassigned');
    expect(await page.getByTestId('task-card').count()).toBe(2);
    await close();
  });

  it('works without JavaScript: the ?new=1 form, filters by GET, start and an edit', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    const title = `Bez skripte ${Date.now()}`;
    await page.goto(`${baseUrl}/tasks`);
    await page.getByRole('link', { name: 'New task' }).click();
    const panel = page.getByTestId('create-panel');
    await panel.getByLabel('Title *').fill(title);
    await panel.getByLabel('Type *').selectOption('kyc_verification');
    await panel.getByRole('button', { name: 'Create task' }).click();
    // Redirected back to the list (the toast itself needs JavaScript to show).
    await page.waitForURL(`${baseUrl}/tasks`);

    // Filters are a GET form: the new task is unassigned.
    await page.getByRole('search').getByLabel('Search tasks').fill(title);
    await page.getByTestId('assignee-filter').selectOption('unassigned');
    await page.getByRole('search').getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/assignee=unassigned/);
    await expect(page.getByTestId('task-card').count()).resolves.toBe(1);
    await page.getByTestId('assignee-filter').selectOption('all');
    await page.getByRole('search').getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/assignee=all/);

    // Starting an unassigned task gives it to whoever starts it.
    await page.getByTestId('task-card').getByRole('button', { name: 'Start' }).click();
    await expect(page.getByTestId('task-card').getByTestId('task-status').textContent()).resolves.toBe('In progress');
    await page.getByTestId('task-card').getByRole('link', { name: 'Edit' }).click();
    const edit = page.getByTestId('edit-panel');
    await edit.getByLabel('Notes').fill('Dokumenti zaprimljeni');
    await edit.getByLabel('Priority').selectOption('urgent');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('task-card').getByText('Hitno').waitFor();
    const [stored] = (await admin.get(`/api/tasks?q=${encodeURIComponent(title)}`)).json as unknown as Array<TaskJson & { notes: string }>;
    expect(stored).toMatchObject({ status: 'in_progress', priority: 'urgent', notes: 'Dokumenti zaprimljeni', assignedTo: adminId });
    await close();
  });
});
