import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { AlertDialog, Badge, Button, Card, Dialog, Flex, Heading, Select, Switch, Table, Text } from '@radix-ui/themes';
import { Form, Link, useFetcher, useNavigation, useSearchParams } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createUserSchema, ROLES, type Role } from '~/auth/schemas.ts';
import type { PublicUser } from '~/auth/user-record.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { Field, FormErrors, PasswordField } from './forms.tsx';
import { Options, SelectField, SubmitRow } from '~/components/kit/fields.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { TitleBlock } from '~/components/kit/page-header.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';

/** A user as the settings page's loader serialises it (the sign-in instant as its ISO string). */
type ManagedUser = Omit<PublicUser, 'mustChangePassword' | 'lastLoginAt' | 'createdAt'> & { lastLoginAt: string | null };

/**
 * docs/domain-model.md#roles-and-permissions: each user's role, active flag and OTP flag. Role and active are
 * disabled on one's own row; super_admin is offered only to a super_admin.
 * Resetting another user's authenticator asks for confirmation: a dialog with
 * JavaScript, the `?resetTotp=<id>` panel without.
 * The server enforces the same rules; this only hides what it would refuse.
 */
export function UserManagement({ users, me, canGrantSuperAdmin }: { users: ManagedUser[]; me: { id: string }; canGrantSuperAdmin: boolean }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const confirming = users.find((user) => user.id === searchParams.get('resetTotp') && user.id !== me.id) ?? null;
  return (
    <Card size="3">
      {confirming ? (
        <Card size="2" mb="3" data-testid="reset-totp-panel">
          <Heading as="h3" size="3" mb="1">
            {t('recovery.totp.confirmTitle')}
          </Heading>
          <ResetTotpConfirmation
            user={confirming}
            cancel={
              <Button asChild variant="soft" color="gray">
                <Link to="/settings">{t('recovery.totp.cancel')}</Link>
              </Button>
            }
          />
        </Card>
      ) : null}
      <Flex justify="between" align="start" mb="3" gap="3" wrap="wrap">
        <TitleBlock level="h3" title={t('settings.users')} subtitle={t('settings.usersDescription')} />
        <NewUserDialog canGrantSuperAdmin={canGrantSuperAdmin} />
      </Flex>
      <Table.Root variant="surface" data-testid="user-table">
        <TableHead
          columns={[t('settings.name'), t('settings.email'), t('settings.role'), t('settings.active'), t('settings.otp'), t('recovery.totp.column'), t('settings.lastLogin')]}
        />
        <Table.Body>
          {users.map((user) => (
            <UserRow key={user.id} user={user} self={user.id === me.id} canGrantSuperAdmin={canGrantSuperAdmin} />
          ))}
        </Table.Body>
      </Table.Root>
    </Card>
  );
}

function UserRow({ user, self, canGrantSuperAdmin }: { user: ManagedUser; self: boolean; canGrantSuperAdmin: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const pending = fetcher.formData;
  const role = (pending?.get('intent') === 'role' ? pending.get('role') : user.role) as Role;
  const isActive = pending?.get('intent') === 'status' ? pending.get('isActive') === 'true' : user.isActive;
  const otpEnabled = pending?.get('intent') === 'otp' ? pending.get('otpEnabled') === 'true' : user.otpEnabled;
  // A super_admin row is out of reach for an admin, as the server says too.
  const locked = self || (user.role === 'super_admin' && !canGrantSuperAdmin);
  const roles = ROLES.filter((r) => r !== 'super_admin' || canGrantSuperAdmin || user.role === 'super_admin');
  const submit = (fields: Record<string, string>) => fetcher.submit({ userId: user.id, ...fields }, { method: 'post' });

  return (
    <Table.Row data-testid={`user-row-${user.email}`}>
      <Table.RowHeaderCell>
        {user.firstName} {user.lastName} {self ? <Badge variant="soft">{t('settings.you')}</Badge> : null}
      </Table.RowHeaderCell>
      <Table.Cell>{user.email}</Table.Cell>
      <Table.Cell>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="role" />
          <input type="hidden" name="userId" value={user.id} />
          <Select.Root name="role" value={role} disabled={locked} onValueChange={(value) => submit({ intent: 'role', role: value })}>
            <Select.Trigger aria-label={t('settings.role')} />
            <Select.Content>
              {roles.map((r) => (
                <Select.Item key={r} value={r}>
                  {t(`roles.${r}`)}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
          <noscript>
            <button type="submit" disabled={locked}>
              {t('settings.role')}
            </button>
          </noscript>
        </fetcher.Form>
      </Table.Cell>
      <Table.Cell>
        <Switch checked={isActive} disabled={locked} aria-label={t('settings.active')} onCheckedChange={(checked) => submit({ intent: 'status', isActive: String(checked) })} />
      </Table.Cell>
      <Table.Cell>
        <Switch
          checked={otpEnabled}
          disabled={user.role === 'super_admin' && !canGrantSuperAdmin}
          aria-label={t('settings.otp')}
          onCheckedChange={(checked) => submit({ intent: 'otp', otpEnabled: String(checked) })}
        />
      </Table.Cell>
      <Table.Cell>
        <Flex direction="column" align="start" gap="1">
          <Badge color={user.totpConfigured ? 'green' : 'gray'} variant="soft">
            {user.totpConfigured ? t('recovery.totp.configured') : t('recovery.totp.notConfigured')}
          </Badge>
          {locked ? null : <ResetTotpButton user={user} />}
        </Flex>
      </Table.Cell>
      <Table.Cell>{user.lastLoginAt ? formatDateTime(user.lastLoginAt) : t('settings.never')}</Table.Cell>
    </Table.Row>
  );
}

/** The reset form itself: what happens, then Cancel and Reset (a plain post, so it works without JavaScript). */
function ResetTotpConfirmation({ user, cancel, onSubmit }: { user: ManagedUser; cancel: React.ReactNode; onSubmit?: () => void }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const resetting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'reset-totp';
  const name = `${user.firstName} ${user.lastName}`.trim();
  return (
    <Form method="post" action="/settings" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="reset-totp" />
      <input type="hidden" name="userId" value={user.id} />
      <Text as="p" size="2" mb="3">
        {t('recovery.totp.confirmDescription', { name, email: user.email })}
      </Text>
      <Flex gap="3" justify="end">
        {cancel}
        <Button type="submit" color="red" disabled={resetting}>
          {t('recovery.totp.confirm')}
        </Button>
      </Flex>
    </Form>
  );
}

/** A link to the `?resetTotp=` panel without JavaScript; with it, the same confirmation in a dialog. */
function ResetTotpButton({ user }: { user: ManagedUser }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <Button asChild size="1" variant="soft" color="red">
        <Link
          to={`?resetTotp=${user.id}`}
          aria-label={t('recovery.totp.resetFor', { email: user.email })}
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
        >
          {t('recovery.totp.reset')}
        </Link>
      </Button>
      <AlertDialog.Content maxWidth="440px">
        <AlertDialog.Title as="h2">{t('recovery.totp.confirmTitle')}</AlertDialog.Title>
        <AlertDialog.Description size="2" mb="3" color="gray">
          {user.email}
        </AlertDialog.Description>
        {/* The post redirects back to /settings with a toast. The dialog closes as the form is sent (the
            router's navigation goes on without it) rather than when the navigation's phases are seen to
            end: a loaded CI browser once left it open after the toast. */}
        <ResetTotpConfirmation
          user={user}
          onSubmit={() => setOpen(false)}
          cancel={
            <AlertDialog.Cancel>
              <Button type="button" variant="soft" color="gray">
                {t('recovery.totp.cancel')}
              </Button>
            </AlertDialog.Cancel>
          }
        />
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}

function NewUserDialog({ canGrantSuperAdmin }: { canGrantSuperAdmin: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ intent: 'create'; result: SubmissionResult<string[]>; created?: boolean }>();
  const [open, setOpen] = useState(false);
  const [form, fields] = useZodForm(createUserSchema, { id: 'new-user', lastResult: fetcher.data?.result, defaultValue: { role: 'user' } });
  const creating = fetcher.state !== 'idle';
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.created) setOpen(false);
  }, [fetcher.state, fetcher.data]);
  const roles = ROLES.filter((r) => r !== 'super_admin' || canGrantSuperAdmin);

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button>{t('settings.addUser')}</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="480px">
        <Dialog.Title as="h2">{t('settings.newUser')}</Dialog.Title>
        <fetcher.Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="create" />
          <Flex direction="column" gap="3">
            <Field label={t('settings.firstName')} inputProps={getInputProps(fields.firstName, { type: 'text' })} errors={fields.firstName.errors} />
            <Field label={t('settings.lastName')} inputProps={getInputProps(fields.lastName, { type: 'text' })} errors={fields.lastName.errors} />
            <Field label={t('settings.email')} inputProps={getInputProps(fields.email, { type: 'email' })} errors={fields.email.errors} />
            <SelectField label={t('settings.role')} meta={fields.role}>
              <Options items={roles} label={(r) => t(`roles.${r}`)} />
            </SelectField>
            <PasswordField label={t('settings.temporaryPassword')} meta={fields.password} autoComplete="new-password" />
            <Text size="1" color="gray">
              {t('settings.temporaryPasswordHint')}
            </Text>
            <FormErrors errors={form.errors} />
            <SubmitRow
              cancel={
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">
                    {t('settings.cancel')}
                  </Button>
                </Dialog.Close>
              }
              submitLabel={t('settings.create')}
              busyLabel={t('settings.creating')}
              busy={creating}
            />
          </Flex>
        </fetcher.Form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
