import { BellIcon, GearIcon, MagnifyingGlassIcon, PlusIcon } from '@radix-ui/react-icons';
import { Button, DropdownMenu, IconButton, TextField } from '@radix-ui/themes';
import { Form, Link, useFetcher, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ShellData } from '~/shell.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { LanguageSwitcher } from './language-switcher.tsx';
import { NAVIGATION, titleKeyForPath } from './navigation.ts';
import { LightBadge, LightBox, LightHeading, LightText, Stack } from './kit/light.tsx';

/** Layout (docs/screens.md): sidebar groups, header (title, last updated, language, search, bell, Add Invoice), user menu. */
export function AppShell({ shell, children }: { shell: ShellData; children: React.ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="app-shell">
      <aside className="sidebar" aria-label="Sidebar">
        <Link to="/" className="sidebar-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <LightText size="5" weight="bold">
            {t('app.name')}
          </LightText>
        </Link>
        <nav>
          {NAVIGATION.map((group) => (
            <div key={group.label} className="sidebar-group">
              <LightText as="div" size="1" weight="bold" color="gray" className="sidebar-group-label">
                {t(group.label)}
              </LightText>
              <ul>
                {group.items.map((item) => {
                  const active = isActive(location.pathname, item.to);
                  return (
                    <li key={item.to}>
                      <Link to={item.to} className={active ? 'sidebar-link active' : 'sidebar-link'} aria-current={active ? 'page' : undefined} prefetch="intent">
                        {t(item.label)}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
        <UserBlock user={shell.user} />
      </aside>
      <div className="main-column">
        <header className="page-header">
          <LightBox>
            <LightHeading as="h1" size="6">
              {t(titleKeyForPath(location.pathname))}
            </LightHeading>
            <LightText size="1" color="gray">
              {t('header.lastUpdated', { time: formatDateTime(shell.renderedAt) })}
            </LightText>
          </LightBox>
          <Stack gap="3" align="center" wrap="wrap">
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
                <LightBadge color="red" variant="solid" radius="full" className="bell-badge" data-testid="notification-count">
                  {shell.openTaskCount > 99 ? '99+' : shell.openTaskCount}
                </LightBadge>
              ) : null}
            </Link>
            <Button asChild>
              <Link to="/invoices?new=1">
                <PlusIcon /> {t('header.addInvoice')}
              </Link>
            </Button>
            <UserMenu />
          </Stack>
        </header>
        <main className="page-content">{children}</main>
      </div>
    </div>
  );
}

/**
 * NavLink's rule for the sidebar's absolute links, read once from the location
 * instead of resolved and matched per link: '/' only itself, the others also
 * their sub-paths, letter case ignored.
 */
function isActive(pathname: string, to: string): boolean {
  const path = pathname.toLowerCase();
  if (to === '/') return path === '/';
  return path === to || (path.startsWith(to) && path.charAt(to.length) === '/');
}

/** Full name when both names are present, else 'unknown user'. */
function UserBlock({ user }: { user: ShellData['user'] | null }) {
  const { t } = useTranslation();
  if (!user) {
    return (
      <LightText size="2" color="gray">
        {t('userMenu.noData')}
      </LightText>
    );
  }
  const name = user.firstName && user.lastName ? `${user.firstName} ${user.lastName}` : t('userMenu.unknownUser');
  return (
    <LightBox className="sidebar-user" data-testid="user-block">
      <LightText as="div" size="2" weight="medium">
        {name}
      </LightText>
      <LightText as="div" size="1" color="gray">
        {user.email} · {t(`roles.${user.role}`)}
      </LightText>
    </LightBox>
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
