import { json, unstable_createMemoryUploadHandler } from '@remix-run/node';
import type { Actor } from '../auth/users.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { encodeRefusal } from '../utils/refusals.ts';
import { readMultipartFormData } from '../utils/form-data.server.ts';
import { redirectWithToast, toastHeaders } from '../utils/toast.server.ts';
import { signDocument, storeDocument } from './documents.server.ts';
import { MAX_UPLOAD_BYTES, MESSAGES, uploadFormSchema } from './schemas.ts';

/**
 * The /documents page action's two intents, kept out of the route module.
 * Upload: a multipart post (works without JavaScript); success redirects with
 * the spec's toast (or, from the JavaScript dialog, answers JSON so the
 * dialog can close); a refusal comes back with the form's errors and values.
 */
const FAILED_TOAST = { title: 'documents.toast.errorTitle', description: 'documents.toast.uploadFailed', variant: 'destructive' } as const;

async function refused(status: number, message: string, errors: Record<string, string[]>, values: Record<string, string>) {
  const toast = message === MESSAGES.required ? { ...FAILED_TOAST, description: MESSAGES.required } : FAILED_TOAST;
  return json({ intent: 'upload' as const, ok: false, message, errors, values }, { status, headers: await toastHeaders(toast) });
}

export async function parseUploadForm({ request, actor, ip, backTo }: { request: Request; actor: Actor; ip: string | null; backTo: string }) {
  let formData: FormData;
  try {
    // One byte over the limit is enough to know the file is too large.
    formData = await readMultipartFormData(request, unstable_createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD_BYTES + 1 }));
  } catch (error) {
    if (error instanceof Response && error.status === 413) {
      const tooLarge = encodeRefusal(MESSAGES.tooLarge, { max: MAX_UPLOAD_BYTES / (1024 * 1024) });
      return refused(413, tooLarge, { file: [tooLarge] }, {});
    }
    throw error;
  }
  const values = Object.fromEntries(
    ['name', 'type', 'entityType', 'entityId', 'signatureRequired'].map((key) => [key, typeof formData.get(key) === 'string' ? String(formData.get(key)) : '']),
  );
  const file = formData.get('file');
  const hasFile = file instanceof Blob && file.size > 0;
  const parsed = uploadFormSchema.safeParse(values);
  if (!parsed.success || !hasFile) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) (errors[String(issue.path[0] ?? '')] ??= []).push(issue.message);
    if (!hasFile) errors.file = [MESSAGES.required];
    return refused(400, MESSAGES.required, errors, values);
  }
  try {
    await storeDocument({
      actor,
      bytes: Buffer.from(await (file as Blob).arrayBuffer()),
      fileName: (file as File).name || null,
      declaredMime: (file as Blob).type || null,
      name: parsed.data.name,
      type: parsed.data.type,
      entityType: parsed.data.entityType ?? null,
      entityId: parsed.data.entityId ?? null,
      signatureRequired: parsed.data.signatureRequired,
      ip,
    });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return refused(problem.status, problem.message, problem.errors ?? {}, values);
  }
  const toast = { title: 'documents.toast.uploaded' };
  if (formData.get('enhanced') === '1') {
    return json({ intent: 'upload' as const, ok: true }, { headers: await toastHeaders(toast) });
  }
  return redirectWithToast(backTo, toast);
}

/** Sign from a card: a plain form post; answers with a redirect back and a toast either way. */
export async function signFromForm({ actor, id, ip, backTo }: { actor: Actor; id: string; ip: string | null; backTo: string }) {
  try {
    await signDocument({ actor, id, ip });
    return redirectWithToast(backTo, { title: 'documents.toast.signed' });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return redirectWithToast(backTo, { title: 'documents.toast.errorTitle', description: 'documents.toast.signFailed', variant: 'destructive' });
  }
}
