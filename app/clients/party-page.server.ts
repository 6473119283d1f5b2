import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import type * as z from 'zod';
import { readApiError } from '../utils/api.server.ts';
import { pageCount as pagesOf, pageOffset, readListUrl } from '../utils/list-url.ts';
import { redirectWithToast, toastHeaders } from '../utils/toast.server.ts';
import type { PartyField, PartySchema } from './schemas.ts';

/**
 * The page side of /clients and /customers (list, create, edit), shared by
 * both areas' route modules so those stay thin.
 */
export const PAGE_SIZE = 24;

/** ?q=&page=&new=1 of a list page; page is 1-based and forgiving. */
export function listPageParams(request: Request) {
  const { q, page, showNew } = readListUrl(request);
  return { q, page, offset: pageOffset(page, PAGE_SIZE), limit: PAGE_SIZE, showNew };
}

export function pageCount(total: number): number {
  return pagesOf(total, PAGE_SIZE);
}

type Toast = { title: string; description?: string };

/** A thrown refusal (400/409) goes back into the form, on its fields when it names them. */
async function refusal(intent: 'create' | 'update', submission: Submission<unknown>, error: unknown) {
  const problem = await readApiError(error);
  if (!problem) throw error;
  const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
  return json({ intent, result }, { status: problem.status });
}

/**
 * The creation form's post. From the dialog (JavaScript, `via=dialog`) it
 * answers JSON so the dialog can close and reset, with the success toast in
 * the flash cookie; from the `?new=1` panel it redirects to the list (PRG),
 * which is what a browser without JavaScript needs.
 */
export async function handleCreate(
  formData: FormData,
  { schema, create, listPath, toast }: { schema: PartySchema; create: (value: z.output<PartySchema>) => Promise<unknown>; listPath: string; toast: Toast },
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return json({ intent: 'create' as const, result: submission.reply() }, { status: 400 });
  try {
    await create(submission.value);
  } catch (error) {
    return refusal('create', submission, error);
  }
  if (formData.get('via') === 'dialog') {
    return json({ intent: 'create' as const, result: submission.reply({ resetForm: true }), created: true }, { headers: await toastHeaders(toast) });
  }
  return redirectWithToast(listPath, toast);
}

/**
 * The detail page's edit form. Every field is posted, so a blank one is sent
 * to the domain as '' (cleared), not dropped as conform's parse would.
 */
export async function handleUpdate(
  formData: FormData,
  {
    schema,
    names,
    update,
    detailPath,
    toast,
  }: { schema: PartySchema; names: readonly (PartyField | 'status')[]; update: (input: Record<string, string>) => Promise<unknown>; detailPath: string; toast: Toast },
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return json({ intent: 'update' as const, result: submission.reply() }, { status: 400 });
  const input: Record<string, string> = {};
  for (const name of names) {
    const value = formData.get(name);
    if (typeof value === 'string') input[name] = value;
  }
  try {
    await update(input);
  } catch (error) {
    return refusal('update', submission, error);
  }
  return redirectWithToast(detailPath, toast);
}
