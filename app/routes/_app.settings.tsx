import { parseWithZod } from '@conform-to/zod/v4';
import { Badge, Card, Flex, Heading, Switch, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useFetcher, useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react';
import type { SubmissionResult } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod';
import packageJson from '../../package.json';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission, requireUser } from '~/auth/permissions.server.ts';
import { createUserSchema, ROLES } from '~/auth/schemas.ts';
import { sendSetPasswordLink } from '~/auth/user-mail.server.ts';
import { createStaffUser, listUsers, resetUserTotp, setUserActive, setUserOtp, setUserRole } from '~/auth/users.server.ts';
import { listBackups, requestBackup } from '~/backups/backups.server.ts';
import { BackupsCard } from '~/components/backups-card.tsx';
import { LanguageSwitcher } from '~/components/language-switcher.tsx';
import { UserManagement } from '~/components/user-management.tsx';
import { getSystemStatus } from '~/system-status.server.ts';
import { readApiError } from '~/utils/api.server.ts';
import { formatDate, formatDateTime } from '~/utils/format.ts';
import { THEME_KEY } from '~/utils/theme.ts';
import { redirectWithToast, toastHeaders } from '~/utils/toast.server.ts';
import type { loader as rootLoader } from '~/root.tsx';
import { readFormData } from '~/utils/form-data.server.ts';
import { FactsCard } from '~/components/kit/facts-card.tsx';
import { BookSettingsCard } from '~/components/ledger/book-settings-card.tsx';
import { fourEyesAmount } from '~/ledger/book-settings.server.ts';
import { handleFourEyesSetting } from '~/ledger/settings-page.server.ts';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { DunningLevelsCard } from '~/components/dunning/levels-card.tsx';
import { dunningLevels } from '~/dunning/levels.server.ts';
import { handleDunningLevels } from '~/dunning/page.server.ts';
import type { DunningLevel } from '~/dunning/schemas.ts';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const canManageUsers = can(user, 'manage:users');
  const canBackup = can(user, 'manage:backups');
  const canBookSettings = can(user, 'manage:book_settings');
  const [system, users, backups, fourEyes, levels] = await Promise.all([
    getSystemStatus(packageJson.version),
    canManageUsers ? listUsers({ limit: 1000 }) : Promise.resolve(null),
    canBackup ? listBackups({ actor: user, limit: 10 }) : Promise.resolve(null),
    canBookSettings ? fourEyesAmount() : Promise.resolve(null),
    canBookSettings ? dunningLevels() : Promise.resolve(null),
  ]);
  return json({
    me: { id: user.id, role: user.role },
    canManageUsers,
    canGrantSuperAdmin: can(user, 'grant:super_admin'),
    users: users?.users ?? null,
    canBackup,
    canExport: can(user, 'export:data'),
    backups: backups?.backups ?? null,
    fourEyesAmount: fourEyes,
    dunningLevels: levels,
    system,
    now: new Date().toISOString(),
  });
}

const userChangeSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('role'), userId: z.uuid(), role: z.enum(ROLES) }),
  z.object({ intent: z.literal('status'), userId: z.uuid(), isActive: z.enum(['true', 'false']).transform((v) => v === 'true') }),
  z.object({ intent: z.literal('otp'), userId: z.uuid(), otpEnabled: z.enum(['true', 'false']).transform((v) => v === 'true') }),
]);

const TOASTS = {
  role: { ok: 'settings.roleUpdated', failed: 'settings.roleFailed' },
  status: { ok: 'settings.statusUpdated', failed: 'settings.statusFailed' },
  otp: { ok: 'settings.otpUpdated', failed: 'settings.otpFailed' },
} as const;

/**
 * Admin user management (docs/domain-model.md#roles-and-permissions): role, active flag, OTP flag, creating staff users (docs/api.md)
 * and resetting a user's authenticator (intent reset-totp, confirmed on the page first);
 * and 'Stvori sigurnosnu kopiju' (intent backup), which queues a database backup.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  if (formData.get('intent') === 'backup') return backupAction(request, clientIp(context));
  if (formData.get('intent') === 'ledger-four-eyes') {
    return handleFourEyesSetting(formData, { actor: await requirePermission(request, 'manage:book_settings'), ip: clientIp(context) });
  }
  if (formData.get('intent') === 'dunning-levels') {
    return handleDunningLevels(formData, { actor: await requirePermission(request, 'manage:book_settings'), ip: clientIp(context) });
  }
  const actor = await requirePermission(request, 'manage:users');
  const meta = { ip: clientIp(context) };

  if (formData.get('intent') === 'create') {
    const submission = parseWithZod(formData, { schema: createUserSchema });
    if (submission.status !== 'success') {
      return json({ intent: 'create' as const, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
    }
    try {
      const { user, setPasswordLink } = await createStaffUser(actor, submission.value, meta);
      if (setPasswordLink) await sendSetPasswordLink(user, setPasswordLink);
      const headers = await toastHeaders({
        title: 'settings.userCreated',
        description: setPasswordLink ? 'settings.linkSent' : 'settings.mustChangeNote',
        params: { email: user.email },
      });
      return json({ intent: 'create' as const, result: submission.reply({ resetForm: true }), created: true }, { headers });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {}, hideFields: ['password'] });
      return json({ intent: 'create' as const, result }, { status: problem.status });
    }
  }

  if (formData.get('intent') === 'reset-totp') {
    // Redirects either way, so the confirmation panel (?resetTotp=) closes and a reload does not post again.
    try {
      const user = await resetUserTotp(actor, String(formData.get('userId') ?? ''), meta);
      return redirectWithToast('/settings', { title: 'recovery.totp.done', description: 'recovery.totp.doneDescription', params: { email: user.email } });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      return redirectWithToast('/settings', { title: 'login.errors.title', description: 'recovery.totp.failed', variant: 'destructive' });
    }
  }

  const parsed = userChangeSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return json({ intent: 'change' as const, ok: false }, { status: 400 });
  const change = parsed.data;
  try {
    if (change.intent === 'role') await setUserRole(actor, change.userId, change.role, meta);
    if (change.intent === 'status') await setUserActive(actor, change.userId, change.isActive, meta);
    if (change.intent === 'otp') await setUserOtp(actor, change.userId, change.otpEnabled, meta);
    return json({ intent: 'change' as const, ok: true }, { headers: await toastHeaders({ title: TOASTS[change.intent].ok }) });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const headers = await toastHeaders({ title: 'login.errors.title', description: TOASTS[change.intent].failed, variant: 'destructive' });
    return json({ intent: 'change' as const, ok: false }, { status: problem.status, headers });
  }
}

async function backupAction(request: Request, ip: string | null) {
  const actor = await requirePermission(request, 'manage:backups');
  try {
    await requestBackup({ actor, ip });
    return redirectWithToast('/settings', { title: 'backups.toast.requested', description: 'backups.toast.requestedDescription' });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    return redirectWithToast('/settings', { title: problem.status === 409 ? 'backups.toast.busy' : 'backups.toast.failed', variant: 'destructive' });
  }
}

export default function SettingsPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('settings.title')} />
      <Card size="3">
        <Heading as="h3" size="4" mb="3">
          {t('settings.appearance')}
        </Heading>
        <Flex direction="column" gap="3">
          <ThemeSwitch />
          <Flex align="center" justify="between" gap="3">
            <Text>{t('settings.language')}</Text>
            <LanguageSwitcher />
          </Flex>
        </Flex>
      </Card>
      {data.canManageUsers && data.users ? <UserManagement users={data.users} me={data.me} canGrantSuperAdmin={data.canGrantSuperAdmin} /> : null}
      {data.fourEyesAmount !== null ? <BookSettingsSection amount={data.fourEyesAmount} /> : null}
      {data.dunningLevels ? <DunningLevelsSection levels={data.dunningLevels} /> : null}
      {data.canBackup || data.canExport ? <BackupsCard backups={data.backups} canBackup={data.canBackup} canExport={data.canExport} /> : null}
      <FactsCard
        title={t('settings.system')}
        facts={[
          { label: t('settings.version'), value: data.system.version, testId: 'app-version' },
          { label: t('settings.date'), value: formatDate(data.now) },
          {
            label: t('settings.database'),
            value: <Badge color={data.system.databaseConnected ? 'green' : 'red'}>{data.system.databaseConnected ? t('settings.databaseOk') : t('settings.databaseDown')}</Badge>,
          },
          {
            label: t('settings.worker'),
            value: (
              <Badge color={data.system.workerRunning ? 'green' : 'red'}>
                {data.system.workerRunning && data.system.workerLastBeatAt
                  ? t('settings.workerOk', { time: formatDateTime(data.system.workerLastBeatAt) })
                  : t('settings.workerDown')}
              </Badge>
            ),
            testId: 'worker-status',
          },
          {
            label: t('settings.status'),
            value:
              data.system.databaseConnected && data.system.workerRunning ? (
                <Badge color="green">{t('settings.statusOk')}</Badge>
              ) : (
                <Badge color="amber">{t('settings.statusDegraded')}</Badge>
              ),
          },
        ]}
      />
    </Flex>
  );
}

/** The book's settings of the client account (app/ledger/book-settings.server.ts), with the form's refusal after a failed post. */
function BookSettingsSection({ amount }: { amount: string }) {
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>();
  return <BookSettingsCard amount={amount} lastResult={actionData?.intent === 'ledger-four-eyes' ? actionData.result : null} />;
}

/** The reminder levels to debtors (app/dunning/levels.server.ts), with the form's refusal after a failed post. */
function DunningLevelsSection({ levels }: { levels: DunningLevel[] }) {
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>();
  return <DunningLevelsCard levels={levels} lastResult={actionData?.intent === 'dunning-levels' ? actionData.result : null} />;
}

/** docs/screens.md: dark mode persisted as light/dark in localStorage (and a cookie for the server render), with a toast. */
function ThemeSwitch() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get('theme');
  const dark = pending ? pending === 'dark' : root?.theme === 'dark';
  const redirectTo = `${location.pathname}${location.search}`;
  return (
    <fetcher.Form method="post" action="/preferences">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Flex align="center" justify="between" gap="3">
        <Text as="label" htmlFor="dark-mode">
          {t('settings.darkMode')}
        </Text>
        <Switch
          id="dark-mode"
          className="js-only"
          checked={dark}
          onCheckedChange={(checked) => {
            const theme = checked ? 'dark' : 'light';
            window.localStorage.setItem(THEME_KEY, theme);
            fetcher.submit({ theme, redirectTo }, { method: 'post', action: '/preferences' });
          }}
        />
        <noscript>
          <button type="submit" name="theme" value={dark ? 'light' : 'dark'}>
            {t('settings.darkMode')}: {dark ? 'ON' : 'OFF'}
          </button>
        </noscript>
      </Flex>
    </fetcher.Form>
  );
}
