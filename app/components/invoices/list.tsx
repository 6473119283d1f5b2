import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Button, Flex, TextField } from '@radix-ui/themes';
import { Form, Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { INVOICE_TABS, type InvoiceTab } from '~/invoices/schemas.ts';
import { listHref } from '~/utils/list-url.ts';

/** The list frame of /invoices (docs/screens.md): search, the five tabs with counts, placeholders, empty state, pages — all in the URL. */
export const PLACEHOLDER_CARDS = 5;

export function invoicesHref(params: { q: string; tab: InvoiceTab; page?: number }, extra: Record<string, string> = {}) {
  return listHref('/invoices', { q: params.q, tab: params.tab, page: params.page }, { tab: 'all', page: 1 }, extra);
}

export function InvoiceSearch({ q, tab }: { q: string; tab: InvoiceTab }) {
  const { t } = useTranslation();
  return (
    <Form method="get" role="search" aria-label={t('invoices.searchLabel')}>
      {tab !== 'all' ? <input type="hidden" name="tab" value={tab} /> : null}
      <Flex gap="2" align="center" wrap="wrap">
        <TextField.Root
          name="q"
          type="search"
          defaultValue={q}
          placeholder={t('invoices.searchPlaceholder')}
          aria-label={t('invoices.searchLabel')}
          style={{ minWidth: 280, flexGrow: 1 }}
        >
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
    <TabBar
      label={t('invoices.tabsLabel')}
      tabs={INVOICE_TABS}
      active={tab}
      hrefFor={(value) => invoicesHref({ q, tab: value })}
      labelFor={(value) => t(`invoices.tabs.${value}`)}
      countFor={(value) => counts[value]}
    />
  );
}
