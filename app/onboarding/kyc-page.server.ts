import { json } from '@remix-run/node';
import type { Actor } from '../auth/users.server.ts';
import { readApiError, type FieldErrors } from '../utils/api.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { decideKyc, type KycDecisionResult } from './kyc-decision.server.ts';

/**
 * The page side of the KYC decision, shared by /tasks and /clients/{id}: the
 * panel's forms post `intent=kyc` with clientId, decision and reason or
 * message. Success redirects with a toast (post/redirect/get, so it works
 * without JavaScript); a refusal comes back as data for the panel.
 */
export interface KycRefusalData {
  intent: 'kyc';
  clientId: string;
  decision: string;
  status: number;
  message: string;
  errors?: FieldErrors;
  /** What was typed, so the form shows it again. */
  values: { reason: string; message: string };
}

/** The toast of a decision: what was done, and whether the applicant was told. */
function toastOf(result: KycDecisionResult) {
  const params = { name: result.companyName };
  const title = `kyc.toast.${result.decision}Title`;
  if (result.decision === 'approve' || result.emailSent) return { title, description: `kyc.toast.${result.decision}Description`, params };
  if (!result.email) return { title, description: 'kyc.toast.noEmail', params };
  return { title, description: 'kyc.toast.emailFailed', params, variant: 'destructive' as const };
}

export async function handleKycDecision(formData: FormData, { actor, ip, back }: { actor: Actor; ip: string | null; back: string }) {
  const clientId = String(formData.get('clientId') ?? '');
  const decision = String(formData.get('decision') ?? '');
  const values = { reason: String(formData.get('reason') ?? ''), message: String(formData.get('message') ?? '') };
  try {
    // Only the field of the chosen decision: the other form's text is not part of it.
    const input = { decision, ...(decision === 'reject' ? { reason: values.reason } : {}), ...(decision === 'request_documents' ? { message: values.message } : {}) };
    const result = await decideKyc({ actor, clientId, input, ip });
    return redirectWithToast(back, toastOf(result));
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const body: KycRefusalData = {
      intent: 'kyc',
      clientId,
      decision,
      status: problem.status,
      message: problem.message,
      ...(problem.errors ? { errors: problem.errors } : {}),
      values,
    };
    return json(body, { status: problem.status });
  }
}
