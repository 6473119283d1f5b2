import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Grid, Heading, Skeleton, TabNav, TextField } from '@radix-ui/themes';
import { Form, Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { INVOICE_TABS, type InvoiceTab } from '~/invoices/schemas.ts';

/** The list frame of /invoices (docs/screens.md): search, the five tabs with counts, placeholders, empty state, pages — all in the URL. */
export const PLACEHOLDER_CARDS = 5;

export function invoicesHref(params: { q: string; tab: InvoiceTab; page?: number }, extra: Record<string, string> = {}) {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  if (params.tab !== 'all') search.set('tab', params.tab);
  if (params.page && params.page > 1) search.set('page', String(params.page));
  for (const [key, value] of Object.entries(extra)) search.set(key, value);
  const text = search.toString();
  return text ? `/invoices?${text}` : '/invoices';
}

export function InvoiceSearch({ q, tab }: { q: string; tab: InvoiceTab }) {
  const { t } = useTranslation();
  return (
    <Form method="get" role="search" aria-label={t('invoices.searchLabel')}>
      {tab !== 'all' ? <input type="hidden" name="tab" value={tab} /> : null}
      <Flex gap="2" align="center" wrap="wrap">
        <TextField.Root name="q" type="search" defaultValue={q} placeholder={t('invoices.searchPlaceholder')} aria-label={t('invoices.searchLabel')} style={{ minWidth: 280, flexGrow: 1 }}>
          <TextField.Slot>
            <MagnifyingGlassIcon />
          </TextField.Slot>
        </TextField.Root>
        <Button type="submit" variant="soft">
          {t('invoices.search')}
        </Button>
        {q ? (
          <Button asChild variant="ghost" color="gray">
            <Link to={invoicesHref({ q: '', tab })}>{t('invoices.clearSearch')}</Link>
          </Button>
        ) : null}
      </Flex>
    </Form>
  );
}

export function InvoiceTabs({ q, tab, counts }: { q: string; tab: InvoiceTab; counts: Record<InvoiceTab, number> }) {
  const { t } = useTranslation();
  return (
    <TabNav.Root aria-label={t('invoices.tabsLabel')}>
      {INVOICE_TABS.map((value) => (
        <TabNav.Link key={value} asChild active={tab === value}>
          <Link to={invoicesHref({ q, tab: value })} data-testid={`tab-${value}`} aria-current={tab === value ? 'page' : undefined}>
            {t(`invoices.tabs.${value}`)} (<span data-testid={`tab-count-${value}`}>{counts[value]}</span>)
          </Link>
        </TabNav.Link>
      ))}
    </TabNav.Root>
  );
}

export function PlaceholderCards() {
  const { t } = useTranslation();
  return (
    <Grid columns={{ initial: '1', md: '2' }} gap="4" aria-busy="true" aria-label={t('invoices.loading')}>
      {Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
        <Card key={index} size="2" data-testid="placeholder-card">
          <Flex direction="column" gap="3">
            <Skeleton height="20px" width="50%" />
            <Skeleton height="14px" width="80%" />
            <Skeleton height="14px" width="60%" />
            <Skeleton height="14px" width="70%" />
            <Skeleton height="24px" width="40%" />
          </Flex>
        </Card>
      ))}
    </Grid>
  );
}

export function EmptyState({ q, action }: { q: string; action: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card size="3" data-testid="empty-state">
      <Flex direction="column" align="center" gap="3" py="6">
        <Heading as="h3" size="4">
          {q ? t('invoices.noMatches', { q }) : t('invoices.empty')}
        </Heading>
        {q ? null : action}
      </Flex>
    </Card>
  );
}
