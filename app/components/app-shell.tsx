import { BellIcon, GearIcon, MagnifyingGlassIcon, PlusIcon } from '@radix-ui/react-icons';
import { Badge, Box, Button, DropdownMenu, Flex, IconButton, Heading, Text, TextField } from '@radix-ui/themes';
import { Form, Link, NavLink, useFetcher, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ShellData } from '~/shell.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { LanguageSwitcher } from './language-switcher.tsx';
import { NAVIGATION, titleKeyForPath } from './navigation.ts';

/** Layout (docs/screens.md): sidebar groups, header (title, last updated, language, search, bell, Add Invoice), user menu. */
export function AppShell({ shell, children }: { shell: ShellData; children: React.ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="app-shell">
      <aside className="sidebar" aria-label="Sidebar">
        <Link to="/" className="sidebar-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <Text size="5" weight="bold">
            {t('app.name')}
          </Text>
        </Link>
        <nav>
          {NAVIGATION.map((group) => (
            <div key={group.label} className="sidebar-group">
              <Text as="div" size="1" weight="bold" color="gray" className="sidebar-group-label">
                {t(group.label)}
              </Text>
              <ul>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end={item.to === '/'} className="sidebar-link" prefetch="intent">
                      {t(item.label)}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <UserBlock user={shell.user} />
      </aside>
      <div className="main-column">
        <header className="page-header">
          <Box>
            <Heading as="h1" size="6">
              {t(titleKeyForPath(location.pathname))}
            </Heading>
            <Text size="1" color="gray">
              {t('header.lastUpdated', { time: formatDateTime(shell.renderedAt) })}
            </Text>
          </Box>
          <Flex gap="3" align="center" wrap="wrap">
            <LanguageSwitcher />
            <Form method="get" action="/search" role="search">
              <TextField.Root name="q" placeholder={t('header.search')} aria-label={t('header.search')} size="2">
                <TextField.Slot>
                  <MagnifyingGlassIcon />
                </TextField.Slot>
              </TextField.Root>
            </Form>
            <Link
              to="/tasks"
              className="bell"
              aria-label={`${t('header.notifications')}: ${t('header.openTasks', { count: shell.openTaskCount })}`}
              title={t('header.openTasks', { count: shell.openTaskCount })}
            >
              <BellIcon width={20} height={20} />
              {shell.openTaskCount > 0 ? (
                <Badge color="red" variant="solid" radius="full" className="bell-badge" data-testid="notification-count">
                  {shell.openTaskCount > 99 ? '99+' : shell.openTaskCount}
                </Badge>
              ) : null}
            </Link>
            <Button asChild>
              <Link to="/invoices?new=1">
                <PlusIcon /> {t('header.addInvoice')}
              </Link>
            </Button>
            <UserMenu />
          </Flex>
        </header>
        <main className="page-content">{children}</main>
      </div>
    </div>
  );
}

/** Full name when both names are present, else 'unknown user'. */
function UserBlock({ user }: { user: ShellData['user'] | null }) {
  const { t } = useTranslation();
  if (!user) {
    return (
      <Text size="2" color="gray">
        {t('userMenu.noData')}
      </Text>
    );
  }
  const name = user.firstName && user.lastName ? `${user.firstName} ${user.lastName}` : t('userMenu.unknownUser');
  return (
    <Box className="sidebar-user" data-testid="user-block">
      <Text as="div" size="2" weight="medium">
        {name}
      </Text>
      <Text as="div" size="1" color="gray">
        {user.email} · {t(`roles.${user.role}`)}
      </Text>
    </Box>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const logout = useFetcher();
  const loggingOut = logout.state !== 'idle';
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="soft" aria-label={t('userMenu.label')}>
          <GearIcon />
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end">
        <DropdownMenu.Item asChild>
          <Link to="/profile">{t('userMenu.profile')}</Link>
        </DropdownMenu.Item>
        <DropdownMenu.Item asChild>
          <Link to="/settings">{t('userMenu.settings')}</Link>
        </DropdownMenu.Item>
        <DropdownMenu.Separator />
        <DropdownMenu.Item
          color="red"
          disabled={loggingOut}
          onSelect={(event) => {
            event.preventDefault();
            logout.submit(null, { method: 'post', action: '/logout' });
          }}
        >
          {loggingOut ? t('userMenu.loggingOut') : t('userMenu.logout')}
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
