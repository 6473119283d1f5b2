import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { json, redirect } from '@remix-run/node';
import { readApiError } from '../utils/api.server.ts';
import { INPUT_ERRORS, isSingleLineText } from '../utils/validation.ts';
import {
  clearDraftCookie,
  createDraft,
  draftCookie,
  draftTokenFrom,
  listDraftFiles,
  loadDraft,
  loadDraftByToken,
  saveDraft,
  type Draft,
  type DraftValues,
} from './drafts.server.ts';
import { isKycType, missingKycTypes, type KycDocumentType } from './kyc.ts';
import { assertRegistrationRate } from './rate-limit.server.ts';
import { attachUploadSchema, bankingStepSchema, companyStepSchema, STEP_FIELDS } from './schemas.ts';
import { submitRegistration } from './submit.server.ts';
import { attachPostedFiles, claimPostedUploads, readWizardForm, type UploadErrors } from './uploads.server.ts';

/**
 * The /onboarding page's loader and action, kept out of the route module so
 * the route stays a thin page. Every step is a plain form post (docs/lifecycle.md#onboarding-and-kyc);
 * success answers with a redirect (post/redirect/get), a refusal re-renders
 * the step with the visitor's values and the errors.
 */
export type WizardStep = 1 | 2 | 3 | 4;

export interface WizardActionData {
  step: WizardStep;
  /** conform's reply for steps 1 and 2 (values and field errors). */
  lastResult?: SubmissionResult<string[]>;
  formErrors?: string[];
  fileErrors?: UploadErrors;
}

const STEP_URL = (step: WizardStep) => `/onboarding?step=${step}`;

export async function loadWizard(request: Request) {
  const draft = await loadDraft(request);
  const requested = Number(new URL(request.url).searchParams.get('step'));
  const files = draft ? await listDraftFiles(draft.id) : [];
  let step: WizardStep;
  if (draft?.submittedAt) step = 4;
  else if (requested === 1 || requested === 2 || requested === 3) step = requested;
  else step = (Math.min(draft?.currentStep ?? 1, 3) as WizardStep) || 1;
  return {
    step,
    values: draft?.values ?? {},
    files: files.map(({ kycType, fileName, size, mimeType }) => ({ kycType, fileName, size, mimeType })),
    missing: missingKycTypes(files.map((file) => file.kycType)),
  };
}

function formDataOf(values: DraftValues): FormData {
  const formData = new FormData();
  for (const [key, value] of Object.entries(values)) formData.set(key, value);
  return formData;
}

/** The raw values of one step's own fields, as typed. */
function stepValues(fields: FormData, step: 1 | 2): DraftValues {
  const values: DraftValues = {};
  for (const name of STEP_FIELDS[step]) {
    const value = fields.get(name);
    values[name] = typeof value === 'string' ? value.slice(0, 1000) : '';
  }
  return values;
}

export async function wizardAction(request: Request, ip: string | null): Promise<Response> {
  const headers = new Headers();
  const fail = (data: WizardActionData, status: number) => json(data, { status, headers });
  try {
    await assertRegistrationRate(ip);
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const step = Number(new URL(request.url).searchParams.get('step'));
    return json(
      { step: step >= 1 && step <= 3 ? step : 1, formErrors: ['onboarding.errors.tooManyRequests'] },
      { status: 429, headers: { 'Retry-After': error instanceof Response ? (error.headers.get('Retry-After') ?? '60') : '60' } },
    );
  }

  let form;
  try {
    form = await readWizardForm(request);
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return fail({ step: 3, formErrors: [problem.message] }, problem.status);
  }
  const { fields, files } = form;
  const intent = String(fields.get('intent') ?? '');
  const postedStep = Number(fields.get('step'));

  let token = draftTokenFrom(request);
  let draft: Draft | null = await loadDraftByToken(token);
  if (intent === 'restart') return redirect('/onboarding', { headers: { 'Set-Cookie': clearDraftCookie() } });
  if (draft?.submittedAt) return redirect(STEP_URL(4));
  if (!draft) {
    const created = await createDraft({ ip });
    draft = created.draft;
    token = created.token;
    headers.append('Set-Cookie', draftCookie(created.token));
  }
  const go = (step: WizardStep) => redirect(STEP_URL(step), { headers });

  if (postedStep === 1 || postedStep === 2) {
    const values = stepValues(fields, postedStep);
    // Saved before validating: nothing typed is lost, even when the step is refused.
    // Text with control characters is left out of the draft; the schema below refuses it on its field.
    await saveDraft(draft.id, { values: Object.fromEntries(Object.entries(values).filter(([, value]) => isSingleLineText(value))), ip });
    if (intent === 'previous') return go(1);
    const schema = postedStep === 1 ? companyStepSchema : bankingStepSchema;
    const submission = parseWithZod(fields, { schema });
    if (submission.status !== 'success') return fail({ step: postedStep, lastResult: submission.reply() }, 400);
    await saveDraft(draft.id, { step: postedStep + 1 });
    return go((postedStep + 1) as WizardStep);
  }

  // Step 3: files first (both routes), then where the visitor asked to go.
  const fileErrors: UploadErrors = { ...(await attachPostedFiles(draft.id, files)) };
  if (intent === 'attach') {
    const attach = attachUploadSchema.safeParse({ kycType: fields.get('kycType'), objectId: fields.get('objectId') });
    if (!attach.success) return fail({ step: 3, formErrors: [attach.error.issues[0].message] }, 400);
    const fileName = fields.get('fileName');
    if (typeof fileName === 'string' && !isSingleLineText(fileName)) return fail({ step: 3, formErrors: [INPUT_ERRORS.invalidCharacters] }, 400);
    Object.assign(fileErrors, await claimPostedUploads(draft.id, [{ ...attach.data, fileName: typeof fileName === 'string' ? fileName.slice(0, 255) : undefined }]));
  } else {
    const claims: Array<{ kycType: KycDocumentType; objectId: string }> = [];
    for (const [name, value] of fields) {
      const kycType = name.startsWith('object_') ? name.slice(7) : '';
      if (isKycType(kycType) && typeof value === 'string' && value !== '') claims.push({ kycType, objectId: value });
    }
    Object.assign(fileErrors, await claimPostedUploads(draft.id, claims));
  }
  if (Object.keys(fileErrors).length > 0) {
    const messages = Object.values(fileErrors).flat();
    const status = messages.some((message) => message === 'onboarding.upload.tooLarge' || message === 'onboarding.upload.capExceeded')
      ? 413
      : messages.includes(INPUT_ERRORS.invalidCharacters)
        ? 400
        : 415;
    return fail({ step: 3, fileErrors }, status);
  }
  await saveDraft(draft.id, { step: 3, ip });
  if (intent === 'previous') return go(2);
  if (intent !== 'submit') return go(3);

  const result = await submitRegistration({ token: token!, ip });
  if (result.ok) return go(4);
  if (result.step === 3) return fail({ step: 3, formErrors: [result.message] }, result.message === 'onboarding.errors.kycRequired' ? 400 : 409);
  // A refusal of the client (e.g. a duplicate OIB) is shown on the step that holds the field.
  const current = await loadDraftByToken(token);
  const schema = result.step === 1 ? companyStepSchema : bankingStepSchema;
  const submission = parseWithZod(formDataOf(current?.values ?? {}), { schema });
  return fail(
    {
      step: result.step,
      lastResult: submission.reply({ formErrors: [result.message], fieldErrors: result.fieldErrors }),
    },
    409,
  );
}
