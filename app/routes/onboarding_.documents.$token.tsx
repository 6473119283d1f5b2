import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { pageTitle } from '~/utils/meta.ts';
import { useActionData, useLoaderData } from '@remix-run/react';
import { clientIp } from '~/auth/login.server.ts';
import { DocumentRequestPage } from '~/components/onboarding/document-request.tsx';
import { documentRequestState, submitRequestedDocuments, type DocumentRequestState } from '~/onboarding/kyc-decision.server.ts';
import { assertRegistrationRate } from '~/onboarding/rate-limit.server.ts';
import { readWizardForm } from '~/onboarding/uploads.server.ts';
import { readApiError } from '~/utils/api.server.ts';

/**
 * /onboarding/documents/{token}: public, like the registration wizard; the
 * link staff email when they ask an applicant for more documents. One
 * multipart form post (works without JavaScript), checked and stored by
 * app/onboarding/kyc-decision.server.ts. A used, replaced, expired or unknown
 * link answers its own page (410 / 404), never an error page.
 */
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, 'kyc.upload.title');

const statusOf = (request: DocumentRequestState) => (request.state === 'unknown' ? 404 : request.state === 'spent' || request.state === 'expired' ? 410 : 200);

export async function loader({ params }: LoaderFunctionArgs) {
  const request = await documentRequestState(params.token ?? '');
  return json({ request }, { status: statusOf(request), headers: { 'Cache-Control': 'no-store' } });
}

interface ActionData {
  request: DocumentRequestState;
  fileErrors?: Partial<Record<string, string[]>>;
  formErrors?: string[];
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token ?? '';
  const ip = clientIp(context);
  const fail = async (status: number, formErrors: string[]) => json<ActionData>({ request: await documentRequestState(token), formErrors }, { status });
  try {
    await assertRegistrationRate(ip);
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return fail(429, ['onboarding.errors.tooManyRequests']);
  }
  if (!(request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) return fail(415, ['onboarding.upload.error']);
  let form;
  try {
    form = await readWizardForm(request);
  } catch (error) {
    const problem = await readApiError(error);
    // A body that is not valid multipart is the sender's fault, not ours.
    return fail(problem?.status ?? 400, [problem?.message ?? 'onboarding.upload.error']);
  }
  const result = await submitRequestedDocuments({ token, files: form.files, ip });
  // Post/redirect/get: the page now says the documents arrived.
  if (result.ok) return redirect(new URL(request.url).pathname);
  return json<ActionData>({ request: result.request, fileErrors: result.fileErrors, formErrors: result.formErrors }, { status: result.status });
}

export default function DocumentRequestRoute() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return <DocumentRequestPage request={actionData?.request ?? data.request} fileErrors={actionData?.fileErrors} formErrors={actionData?.formErrors} />;
}
