import { json, type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { clientIp, logout, setupTotp, startLogin, verifyOtp, verifyTotpSetup } from '~/auth/login.server.ts';
import { getSignedInUser } from '~/auth/permissions.server.ts';
import { Dashboard } from '~/components/dashboard.tsx';
import { loadDashboard } from '~/dashboard/dashboard.server.ts';
import { periodOf } from '~/dashboard/display.ts';
import { LoginPage, type LoginActionData } from '~/components/login-page.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';

/** `/`: the login page for a visitor, the dashboard for signed-in staff (docs/screens.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSignedInUser(request);
  if (!user) return json({ user: null, dashboard: null });
  // Staff see the dashboard (docs/screens.md); each of its sections loads, and fails, on its own.
  const period = periodOf(new URL(request.url).searchParams.get('period'));
  const dashboard = await loadDashboard({ userId: user.id, period, request });
  return json({ user: { firstName: user.firstName, lastName: user.lastName }, dashboard });
}

const LOGIN_ERRORS = { loginFailed: 'login.errors.loginFailed', totpSetupFailed: 'login.errors.totpSetupFailed' } as const;

/** A request carrying the session cookie that a previous step just set. */
function withSessionCookie(request: Request, setCookie: string | undefined) {
  if (!setCookie) return request;
  const headers = new Headers(request.headers);
  headers.set('Cookie', setCookie.split(';')[0]);
  return new Request(request.url, { method: 'GET', headers });
}

/**
 * The three login steps as one form with intents, so the login works with
 * and without JavaScript. The steps themselves live in auth/login.server.ts.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const meta = { ip: clientIp(context) };
  const form = await readFormData(request.clone());
  const intent = String(form.get('intent') ?? 'login');
  const step: LoginActionData['step'] = intent === 'verify-otp' ? 'code' : intent === 'verify-setup' ? 'setup' : 'credentials';
  // The setup screen keeps its QR and key across a mistyped code.
  const setup = { qrCode: String(form.get('qrCode') ?? ''), manualKey: String(form.get('manualKey') ?? '') };

  // What the reader is told when a step fails for a reason that is no refusal (docs/decisions/013-error-codes.md).
  let fallback = intent === 'verify-setup' ? LOGIN_ERRORS.totpSetupFailed : LOGIN_ERRORS.loginFailed;
  try {
    switch (intent) {
      case 'back': {
        const { headers } = await logout(request, meta);
        return json<LoginActionData>({ step: 'credentials' }, { headers });
      }
      case 'verify-otp': {
        const { headers } = await verifyOtp(request, { otpCode: form.get('otpCode') }, meta);
        return redirectWithToast('/', { title: 'login.success.loginTitle', description: 'login.success.login' }, { headers });
      }
      case 'verify-setup': {
        const { headers } = await verifyTotpSetup(request, { totpCode: form.get('totpCode') }, meta);
        return redirectWithToast('/', { title: 'login.success.totpEnabledTitle', description: 'login.success.totpEnabled' }, { headers });
      }
      default: {
        const { data, headers } = await startLogin(request, { email: form.get('email'), password: form.get('password') }, meta);
        if (data.needsTotpSetup) {
          fallback = LOGIN_ERRORS.totpSetupFailed;
          const { data: secret } = await setupTotp(withSessionCookie(request, headers['Set-Cookie']));
          return json<LoginActionData>({ step: 'setup', ...secret }, { headers });
        }
        if (data.requiresTotp) return json<LoginActionData>({ step: 'code' }, { headers });
        return redirect('/', { headers });
      }
    }
  } catch (error) {
    const apiError = await readApiError(error);
    if (!apiError) {
      console.error(`login: ${intent} failed`, error);
      // The setup screen stays only where its QR and key came with the post.
      const data: LoginActionData = step === 'setup' ? { step, ...setup, error: fallback } : { step, error: fallback };
      return json<LoginActionData>(data, { status: 500 });
    }
    // 401 here means the pending sign-in expired: start again from the credentials.
    const nextStep = apiError.status === 401 ? 'credentials' : step;
    const data: LoginActionData = nextStep === 'setup' ? { step: 'setup', ...setup, error: apiError.message } : { step: nextStep, error: apiError.message };
    return json<LoginActionData>(data, { status: apiError.status });
  }
}

export default function Index() {
  const { user, dashboard } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (user && dashboard) return <Dashboard user={user} data={dashboard} />;
  return <LoginPage actionData={actionData ?? null} />;
}
