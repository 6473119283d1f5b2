/** The sidebar (docs/screens.md): groups, their links and label keys, in order. */
export interface NavItem {
  to: string;
  label: string;
}
export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const NAVIGATION: NavGroup[] = [
  { label: 'nav.groups.dashboard', items: [{ to: '/', label: 'nav.dashboard' }] },
  {
    label: 'nav.groups.crm',
    items: [
      { to: '/clients', label: 'nav.clients' },
      { to: '/customers', label: 'nav.customers' },
      { to: '/onboarding', label: 'nav.onboarding' },
    ],
  },
  {
    label: 'nav.groups.factoring',
    items: [
      { to: '/invoices', label: 'nav.invoices' },
      { to: '/risk', label: 'nav.risk' },
      { to: '/limits', label: 'nav.limits' },
      { to: '/payments', label: 'nav.payments' },
    ],
  },
  {
    label: 'nav.groups.automation',
    items: [
      { to: '/workflows', label: 'nav.workflows' },
      { to: '/tasks', label: 'nav.tasks' },
      { to: '/email-automation', label: 'nav.emailAutomation' },
    ],
  },
  {
    label: 'nav.groups.integrations',
    items: [
      { to: '/integrations/hanfa', label: 'nav.hanfa' },
      { to: '/integrations/fina', label: 'nav.fina' },
      { to: '/integrations/einvoicing', label: 'nav.einvoicing' },
    ],
  },
  {
    label: 'nav.groups.documents',
    items: [
      { to: '/documents', label: 'nav.documents' },
      { to: '/analytics', label: 'nav.analytics' },
      { to: '/monitoring', label: 'nav.monitoring' },
    ],
  },
];

/** The page title key for a path: the sidebar label of the longest matching link. */
export function titleKeyForPath(pathname: string): string {
  if (pathname === '/profile') return 'nav.profile';
  if (pathname === '/settings') return 'nav.settings';
  if (pathname === '/search') return 'nav.search';
  if (pathname === '/integrations') return 'nav.integrationsPage';
  let best: NavItem | undefined;
  for (const item of NAVIGATION.flatMap((group) => group.items)) {
    const matches = item.to === '/' ? pathname === '/' : pathname === item.to || pathname.startsWith(`${item.to}/`);
    if (matches && (!best || item.to.length > best.to.length)) best = item;
  }
  return best?.label ?? 'nav.dashboard';
}
