import { getFormProps, getInputProps, type FormMetadata, type Submission, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Badge, Button, Callout, Card, Flex, Grid, Heading } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { requireUser } from '~/auth/permissions.server.ts';
import { changePasswordSchema, profileSchema } from '~/auth/schemas.ts';
import { getSession } from '~/auth/session.server.ts';
import { changePassword, updateProfile } from '~/auth/users.server.ts';
import { Field, FormErrors, PasswordField } from '~/components/forms.tsx';
import { useToast } from '~/components/toaster.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { useZodForm } from '~/components/kit/zod-form.ts';
import { FactsCard } from '~/components/kit/facts-card.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ user });
}

type Intent = 'profile' | 'password';
type ActionData = { intent: Intent; result: SubmissionResult<string[]> };
// Passwords are never sent back into the form.
const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'];

/** Profile (docs/screens.md): personal data and password change, each its own form; the rules live in users.server.ts. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);
  const meta = { ip: clientIp(context) };

  if (formData.get('intent') === 'password') {
    const submission = parseWithZod(formData, { schema: changePasswordSchema });
    if (submission.status !== 'success') return invalid('password', submission.reply({ hideFields: PASSWORD_FIELDS }));
    const session = await getSession(request);
    return attempt('password', submission, async () => {
      await changePassword(user, submission.value, { ...meta, exceptSessionId: session.id });
      return redirectWithToast('/profile', { title: 'profile.passwordChanged' });
    });
  }
  const submission = parseWithZod(formData, { schema: profileSchema });
  if (submission.status !== 'success') return invalid('profile', submission.reply());
  return attempt('profile', submission, async () => {
    await updateProfile(user, submission.value, meta);
    return redirectWithToast('/profile', { title: 'profile.updated' });
  });
}

function invalid(intent: Intent, result: SubmissionResult<string[]>, status = 400) {
  return json<ActionData>({ intent, result }, { status });
}

/** Runs the domain call; a refusal it throws (400/409/429) goes back into the form. */
async function attempt(intent: Intent, submission: Submission<unknown>, run: () => Promise<Response>) {
  try {
    return await run();
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = submission.reply({
      formErrors: problem.errors ? [] : [problem.message],
      fieldErrors: problem.errors ?? {},
      hideFields: PASSWORD_FIELDS,
    });
    return invalid(intent, result, problem.status);
  }
}

export default function ProfilePage() {
  const { user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('profile.title')} />
      {user.mustChangePassword ? (
        <Callout.Root color="amber" role="status">
          <Callout.Text>{t('profile.mustChange')}</Callout.Text>
        </Callout.Root>
      ) : null}
      <Grid columns={{ initial: '1', md: '2' }} gap="4">
        <ProfileForm user={user} lastResult={actionData?.intent === 'profile' ? actionData.result : undefined} />
        <PasswordForm lastResult={actionData?.intent === 'password' ? actionData.result : undefined} />
      </Grid>
      <AccountInfo user={user} />
    </Flex>
  );
}

/** Each form card's title, submit texts (ready and busy) and failure toast text, by its intent. */
const PROFILE_CARDS = {
  profile: { title: 'profile.personal', submit: 'profile.save', busy: 'profile.saving', failure: 'profile.updateFailed' },
  password: { title: 'profile.password', submit: 'profile.changePassword', busy: 'profile.changing', failure: 'profile.passwordFailed' },
} as const;

/**
 * A form card of the profile page: one form posting `intent`, its title,
 * fields, refusals and a submit that says it is busy while this form is sent.
 * docs/screens.md: a failed save shows the destructive 'Greška' toast with
 * the form's own failure text.
 */
function ProfileCard({
  form,
  intent,
  lastResult,
  children,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any conform form; only its id, errors and props are read
  form: FormMetadata<any, string[]>;
  intent: keyof typeof PROFILE_CARDS;
  lastResult?: SubmissionResult<string[]>;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { title, submit, busy: busyLabel, failure } = PROFILE_CARDS[intent];
  const toast = useToast();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  useEffect(() => {
    if (lastResult?.status === 'error') toast({ title: 'profile.errorTitle', description: failure, variant: 'destructive' });
  }, [lastResult, toast, failure]);
  return (
    <Card size="3">
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        <Flex direction="column" gap="3">
          <Heading as="h3" size="4">
            {t(title)}
          </Heading>
          {children}
          <FormErrors errors={form.errors} />
          <Button type="submit" disabled={busy}>
            {t(busy ? busyLabel : submit)}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}

function ProfileForm({ user, lastResult }: { user: { firstName: string; lastName: string; email: string }; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  // Prefilled from the current user until edited (docs/screens.md).
  const [form, fields] = useZodForm(profileSchema, { id: 'profile', lastResult, defaultValue: { firstName: user.firstName, lastName: user.lastName, email: user.email } });
  return (
    <ProfileCard form={form} intent="profile" lastResult={lastResult}>
      <Field label={t('profile.firstName')} inputProps={getInputProps(fields.firstName, { type: 'text' })} errors={fields.firstName.errors} />
      <Field label={t('profile.lastName')} inputProps={getInputProps(fields.lastName, { type: 'text' })} errors={fields.lastName.errors} />
      <Field label={t('profile.email')} inputProps={getInputProps(fields.email, { type: 'email' })} errors={fields.email.errors} />
    </ProfileCard>
  );
}

function PasswordForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm(changePasswordSchema, { id: 'password', lastResult });
  return (
    <ProfileCard form={form} intent="password" lastResult={lastResult}>
      <PasswordField label={t('profile.currentPassword')} meta={fields.currentPassword} autoComplete="current-password" />
      <PasswordField label={t('profile.newPassword')} meta={fields.newPassword} autoComplete="new-password" />
      <PasswordField label={t('profile.confirmPassword')} meta={fields.confirmPassword} autoComplete="new-password" />
    </ProfileCard>
  );
}

function AccountInfo({ user }: { user: { role: string; isActive: boolean; lastLoginAt: string | null; totpConfigured: boolean; otpEnabled: boolean } }) {
  const { t } = useTranslation();
  return (
    <FactsCard
      title={t('profile.account')}
      facts={[
        { label: t('profile.role'), value: t(`roles.${user.role}`) },
        {
          label: t('profile.status'),
          value: <Badge color={user.isActive ? 'green' : 'gray'}>{user.isActive ? t('profile.active') : t('profile.inactive')}</Badge>,
        },
        { label: t('profile.lastLogin'), value: user.lastLoginAt ? formatDateTime(user.lastLoginAt) : t('profile.never'), testId: 'last-login' },
        { label: t('profile.totp'), value: user.otpEnabled && user.totpConfigured ? t('profile.yes') : t('profile.no'), testId: 'totp-enabled' },
      ]}
    />
  );
}
