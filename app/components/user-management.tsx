import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Badge, Button, Card, Dialog, Flex, Heading, Select, Switch, Table, Text } from '@radix-ui/themes';
import { useFetcher } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createUserSchema, ROLES, type Role } from '~/auth/schemas.ts';
import { formatDateTime } from '~/utils/format.ts';
import { ErrorList, Field, FormErrors, PasswordField } from './forms.tsx';

interface ManagedUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  isActive: boolean;
  otpEnabled: boolean;
  lastLoginAt: string | null;
}

/**
 * Spec §6: each user's role, active flag and OTP flag. Role and active are
 * disabled on one's own row; super_admin is offered only to a super_admin.
 * The server enforces the same rules; this only hides what it would refuse.
 */
export function UserManagement({
  users,
  me,
  canGrantSuperAdmin,
}: {
  users: ManagedUser[];
  me: { id: string };
  canGrantSuperAdmin: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card size="3">
      <Flex justify="between" align="start" mb="3" gap="3" wrap="wrap">
        <div>
          <Heading as="h3" size="4">{t('settings.users')}</Heading>
          <Text size="2" color="gray">
            {t('settings.usersDescription')}
          </Text>
        </div>
        <NewUserDialog canGrantSuperAdmin={canGrantSuperAdmin} />
      </Flex>
      <Table.Root variant="surface" data-testid="user-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t('settings.name')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('settings.email')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('settings.role')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('settings.active')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('settings.otp')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('settings.lastLogin')}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
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
        <Switch
          checked={isActive}
          disabled={locked}
          aria-label={t('settings.active')}
          onCheckedChange={(checked) => submit({ intent: 'status', isActive: String(checked) })}
        />
      </Table.Cell>
      <Table.Cell>
        <Switch
          checked={otpEnabled}
          disabled={user.role === 'super_admin' && !canGrantSuperAdmin}
          aria-label={t('settings.otp')}
          onCheckedChange={(checked) => submit({ intent: 'otp', otpEnabled: String(checked) })}
        />
      </Table.Cell>
      <Table.Cell>{user.lastLoginAt ? formatDateTime(user.lastLoginAt) : t('settings.never')}</Table.Cell>
    </Table.Row>
  );
}

function NewUserDialog({ canGrantSuperAdmin }: { canGrantSuperAdmin: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ intent: 'create'; result: SubmissionResult<string[]>; created?: boolean }>();
  const [open, setOpen] = useState(false);
  const [form, fields] = useForm({
    id: 'new-user',
    lastResult: fetcher.data?.result,
    defaultValue: { role: 'user' },
    constraint: getZodConstraint(createUserSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createUserSchema }),
  });
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
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor={fields.role.id} size="2" weight="medium">
                {t('settings.role')}
              </Text>
              <select {...getSelectProps(fields.role)} className="native-select">
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {t(`roles.${r}`)}
                  </option>
                ))}
              </select>
              <ErrorList errors={fields.role.errors} />
            </Flex>
            <PasswordField label={t('settings.temporaryPassword')} meta={fields.password} autoComplete="new-password" />
            <Text size="1" color="gray">
              {t('settings.temporaryPasswordHint')}
            </Text>
            <FormErrors errors={form.errors} />
            <Flex gap="3" justify="end">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  {t('settings.cancel')}
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={creating}>
                {creating ? t('settings.creating') : t('settings.create')}
              </Button>
            </Flex>
          </Flex>
        </fetcher.Form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
