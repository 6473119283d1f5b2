import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import type { Actor } from '../auth/users.server.ts';
import { handleKycDecision } from '../onboarding/kyc-page.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { pageOffset, readListUrl, tabSchema } from '../utils/list-url.ts';
import { redirectWithToast, toastHeaders } from '../utils/toast.server.ts';
import {
  ASSIGNEE_FILTERS,
  TASK_EDIT_FIELDS,
  TASK_PRIORITIES,
  TASK_TABS,
  taskCreateSchema,
  taskEditFormSchema,
  type AssigneeFilter,
  type TaskPageIntent,
  type TaskTab,
} from './schemas.ts';
import { assignTask, createTask, updateTask } from './tasks.server.ts';

/**
 * The page side of /tasks: the URL's list state and the route action's
 * intents, so the route module stays thin. Every intent works as a plain
 * form post (no JavaScript) and answers with a redirect and a toast (PRG) or
 * the refusal to show on the card or in the form.
 */
export const PAGE_SIZE = 20;
const TAB = tabSchema(TASK_TABS, 'all');
const PRIORITY = tabSchema(['all', ...TASK_PRIORITIES], 'all');
const ASSIGNEE = tabSchema(ASSIGNEE_FILTERS, 'all');

/** ?q ?priority ?assignee ?tab ?page ?new=1 ?task=<id> ?edit=<id>; unknown values fall back to the defaults. */
export function taskListParams(request: Request) {
  const url = readListUrl(request);
  const priority: string = url.read(PRIORITY, 'priority');
  const assignee: AssigneeFilter = url.read(ASSIGNEE, 'assignee');
  const tab: TaskTab = url.read(TAB);
  const entityType = url.params.get('entityType');
  const entityId = url.id('entityId');
  return {
    q: url.q,
    priority,
    assignee,
    tab,
    page: url.page,
    offset: pageOffset(url.page, PAGE_SIZE),
    limit: PAGE_SIZE,
    showNew: url.showNew,
    detailId: url.id('task'),
    editId: url.id('edit'),
    entity: entityType && entityId ? { type: entityType, id: entityId } : null,
  };
}

/** Where a post returns to: the same list, without the open form. */
export function backTo(request: Request, options: { keepDetail?: boolean } = {}): string {
  const url = new URL(request.url);
  for (const name of ['index', 'new', 'edit', 'entityType', 'entityId']) url.searchParams.delete(name);
  if (!options.keepDetail) url.searchParams.delete('task');
  return `${url.pathname}${url.search}`;
}

const SUCCESS = { title: 'tasks.toast.successTitle', description: 'tasks.toast.updated' };

/** 'kyc': a KYC task's decision on its client (app/onboarding/kyc-page.server.ts). */
export type TaskIntent = TaskPageIntent;

/** A refusal of a card's button (start, complete, cancel, assign): shown on that card, toasted when JavaScript runs. */
export interface TaskRefusalData {
  intent: TaskIntent;
  id: string;
  status: number;
  message: string;
}

export async function handleTaskIntent(formData: FormData, { actor, ip, request }: { actor: Actor; ip: string | null; request: Request }) {
  const intent = String(formData.get('intent') ?? '') as TaskIntent;
  if (intent === 'create') return handleCreate(formData, { actor, ip, request });
  if (intent === 'edit') return handleEdit(formData, { actor, ip, request });
  // The task stays open in its details view, which then shows the decision taken.
  if (intent === 'kyc') return handleKycDecision(formData, { actor, ip, back: backTo(request, { keepDetail: true }) });
  const id = String(formData.get('id') ?? '');
  try {
    if (intent === 'assign') {
      await assignTask({ actor, id, assignedTo: String(formData.get('assignedTo') ?? '') || null, ip });
    } else {
      const status = intent === 'start' ? 'in_progress' : intent === 'complete' ? 'completed' : 'cancelled';
      await updateTask({ actor, id, input: { status }, ip });
    }
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const body: TaskRefusalData = { intent, id, status: problem.status, message: problem.message };
    return json(body, { status: problem.status });
  }
  return redirectWithToast(backTo(request, { keepDetail: true }), SUCCESS);
}

async function handleCreate(formData: FormData, { actor, ip, request }: { actor: Actor; ip: string | null; request: Request }) {
  const submission = parseWithZod(formData, { schema: taskCreateSchema });
  if (submission.status !== 'success') return json({ intent: 'create' as const, result: submission.reply() }, { status: 400 });
  try {
    // The raw strings: the domain validates them again with the same schema (a missing title or type reads as absent there).
    const { title, type, ...rest } = Object.fromEntries(formData);
    await createTask({ actor, input: { title, type, ...rest }, ip });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
    return json({ intent: 'create' as const, result }, { status: problem.status });
  }
  const toast = { title: 'tasks.toast.successTitle', description: 'tasks.toast.created' };
  if (formData.get('via') === 'dialog') {
    return json({ intent: 'create' as const, result: submission.reply({ resetForm: true }), created: true }, { headers: await toastHeaders(toast) });
  }
  return redirectWithToast(backTo(request), toast);
}

/** Every field is posted, so a blank one clears it (sent as ''), unlike conform's parse which drops it. */
async function handleEdit(formData: FormData, { actor, ip, request }: { actor: Actor; ip: string | null; request: Request }) {
  const id = String(formData.get('id') ?? '');
  const submission = parseWithZod(formData, { schema: taskEditFormSchema });
  if (submission.status !== 'success') return json({ intent: 'edit' as const, id, result: submission.reply() }, { status: 400 });
  const input: Record<string, string> = {};
  for (const name of TASK_EDIT_FIELDS) {
    const value = formData.get(name);
    if (typeof value === 'string') input[name] = value;
  }
  try {
    await updateTask({ actor, id, input, ip });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
    return json({ intent: 'edit' as const, id, result }, { status: problem.status });
  }
  return redirectWithToast(backTo(request), SUCCESS);
}
