import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { clientIp } from '~/auth/login.server.ts';
import { DebtorLinkPage } from '~/components/debtors/debtor-page.tsx';
import { linkState, linkStatusCode, submitDebtorAnswers, type DebtorLinkState } from '~/debtors/links.server.ts';
import type { DebtorFormErrors } from '~/debtors/schemas.ts';
import { assertRegistrationRate, TOO_MANY_REQUESTS } from '~/onboarding/rate-limit.server.ts';
import { readApiError } from '~/utils/api.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { pageTitle } from '~/utils/meta.ts';

/**
 * /debtor/{token}: public, like /onboarding; the link a debtor gets with the
 * notice of assignment (app/debtors/links.server.ts). The notice to download,
 * the invoices waiting for an answer and one form post (works without
 * JavaScript). A used, revoked, expired or unknown link answers its own page
 * (410 / 404), never the form. Rate-limited per address like the wizard.
 */
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, 'debtors.page.title');

interface ActionData {
  link: DebtorLinkState;
  errors?: DebtorFormErrors;
  values?: Record<string, string>;
}

async function rateLimited(ip: string | null): Promise<boolean> {
  try {
    await assertRegistrationRate(ip, undefined, 'debtor');
    return false;
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return true;
  }
}

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const headers = { 'Cache-Control': 'no-store' };
  if (await rateLimited(clientIp(context))) return json({ link: { state: 'unknown' } as DebtorLinkState, done: false, limited: true }, { status: 429, headers });
  const link = await linkState(params.token ?? '');
  // Just submitted (post/redirect/get): the thanks, not the refusal of a used link.
  const done = link.state === 'spent' && new URL(request.url).searchParams.get('done') === '1';
  return json({ link, done, limited: false }, { status: done ? 200 : linkStatusCode(link.state), headers });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token ?? '';
  const ip = clientIp(context);
  if (await rateLimited(ip)) return json<ActionData>({ link: await linkState(token), errors: { form: [TOO_MANY_REQUESTS] } }, { status: 429 });
  const formData = await readFormData(request);
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) if (typeof value === 'string' && !(name in fields)) fields[name] = value;
  const result = await submitDebtorAnswers({ token, fields, ip });
  if (result.ok) return redirect(`${new URL(request.url).pathname}?done=1`);
  return json<ActionData>({ link: result.link, errors: result.errors, values: fields }, { status: result.status });
}

export default function DebtorLinkRoute() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return <DebtorLinkPage link={actionData?.link ?? data.link} done={data.done} limited={data.limited} errors={actionData?.errors} values={actionData?.values} />;
}
