import type { SubmissionResult } from '@conform-to/react';
import { pageTitle } from '~/utils/meta.ts';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { clientIp } from '~/auth/login.server.ts';
import { BankingStep, CompanyStep } from '~/components/onboarding/details-steps.tsx';
import { DocumentsStep } from '~/components/onboarding/documents-step.tsx';
import { SuccessStep } from '~/components/onboarding/success-step.tsx';
import { WizardFrame } from '~/components/onboarding/wizard-frame.tsx';
import { WizardFormErrors } from '~/components/onboarding/fields.tsx';
import { loadWizard, wizardAction, type WizardActionData } from '~/onboarding/wizard.server.ts';

/**
 * The client registration wizard at /onboarding (docs/screens.md): public (docs/lifecycle.md#onboarding-and-kyc), so
 * it lives outside the signed-in `_app` layout; staff may use it too (e.g. to
 * register a client on the phone). Works without JavaScript: every step is a
 * form post and the draft is kept server-side (app/onboarding).
 */
// No 'no-referrer' here: with it Chromium sends `Origin: null` on form posts, which the cross-site check refuses.
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, 'onboarding.title');

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await loadWizard(request), { headers: { 'Cache-Control': 'no-store' } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return wizardAction(request, clientIp(context));
}

export default function OnboardingPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<WizardActionData>();
  // A refused post re-renders its step (or the step that holds the refused field).
  const step = data.step === 4 ? 4 : (actionData?.step ?? data.step);
  const lastResult = actionData?.step === step ? (actionData.lastResult as SubmissionResult<string[]> | undefined) : undefined;

  return (
    <WizardFrame step={step}>
      {step === 1 || step === 2 ? <WizardFormErrors errors={lastResult ? undefined : actionData?.formErrors} /> : null}
      {step === 1 ? <CompanyStep key="step-1" values={data.values} lastResult={lastResult} /> : null}
      {step === 2 ? <BankingStep key="step-2" values={data.values} lastResult={lastResult} /> : null}
      {step === 3 ? <DocumentsStep files={data.files} missing={data.missing} fileErrors={actionData?.fileErrors} formErrors={actionData?.formErrors} /> : null}
      {step === 4 ? <SuccessStep /> : null}
    </WizardFrame>
  );
}
