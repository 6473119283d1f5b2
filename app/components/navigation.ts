/** The sidebar (docs/screens.md): groups, their links and label keys, in order. */
export interface NavItem {
  to: string;
  label: string;
}
export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** A link and its label key under `nav.`; a group of them under `nav.groups.`. */
const link = (to: string, key: string): NavItem => ({ to, label: `nav.${key}` });
const group = (key: string, ...items: NavItem[]): NavGroup => ({ label: `nav.groups.${key}`, items });

export const NAVIGATION: NavGroup[] = [
  group('dashboard', link('/', 'dashboard')),
  group('crm', link('/clients', 'clients'), link('/customers', 'customers'), link('/onboarding', 'onboarding')),
  group('factoring', link('/invoices', 'invoices'), link('/risk', 'risk'), link('/limits', 'limits'), link('/payments', 'payments')),
  group('automation', link('/workflows', 'workflows'), link('/tasks', 'tasks'), link('/email-automation', 'emailAutomation')),
  group('integrations', link('/integrations/hanfa', 'hanfa'), link('/integrations/fina', 'fina'), link('/integrations/einvoicing', 'einvoicing')),
  group('documents', link('/documents', 'documents'), link('/analytics', 'analytics'), link('/monitoring', 'monitoring')),
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
