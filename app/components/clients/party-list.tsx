import { Link, useActionData, useLocation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '~/components/kit/create-form.tsx';
import { useListLoading } from '~/components/kit/list-loading.ts';
import { EmptyState, PlaceholderCards } from '~/components/kit/list-states.tsx';
import { Pager } from '~/components/kit/pager.tsx';
import { LightGrid, LightHeading, LightText, Stack } from '~/components/kit/light.tsx';
import { RecordCard } from '~/components/kit/record-card.tsx';
import { RiskScore } from './display.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { SearchBar } from '~/components/kit/search-bar.tsx';
import type { PartyField, PartySchema } from '~/clients/schemas.ts';
import { useCreateDialog } from '~/components/kit/create-form.tsx';
import { CreatePartyDialog, CreatePartyPanel, type PartyActionData, type PartyArea } from './party-form.tsx';

/**
 * The frame of /clients and /customers (docs/screens.md): header, 'Dodaj …' button,
 * search and pagination in the URL (plain GET links and forms, so they work
 * without JavaScript), 6 placeholder cards while the next page loads, and
 * the empty state.
 */
export const PLACEHOLDER_CARDS = 6;

/** The 'Dodaj …' buttons: a link to `?new=1` (no JavaScript), opening the dialog when JavaScript runs. */
function AddPartyButton({ label, onOpen, variant }: { label: string; onOpen: () => void; variant?: 'solid' | 'soft' }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.set('new', '1');
  return <CreateButton to={`?${params}`} onOpen={onOpen} label={label} variant={variant} />;
}

function PartyListFrame({
  area,
  q,
  page,
  pages,
  total,
  addButton,
  panel,
  emptyAction,
  children,
}: {
  area: PartyArea;
  q: string;
  page: number;
  pages: number;
  total: number;
  addButton: React.ReactNode;
  panel: React.ReactNode;
  emptyAction: React.ReactNode;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const loading = useListLoading();
  const { pathname } = useLocation();
  return (
    <Stack direction="column" gap="4">
      <PageHeader title={t(`${area}.title`)}>{addButton}</PageHeader>
      {panel}
      <SearchBar
        label={t(`${area}.searchLabel`)}
        placeholder={t('clients.searchPlaceholder')}
        q={q}
        submitLabel={t('clients.search')}
        clear={q ? { to: pathname, label: t('clients.clearSearch') } : null}
        minWidth={280}
        after={
          <LightText size="2" color="gray" data-testid="total-count">
            {t(`${area}.total`, { count: total })}
          </LightText>
        }
      />
      {loading ? (
        <PlaceholderCards count={PLACEHOLDER_CARDS} label={t(`${area}.loading`)} lines={['70%', '40%', '90%', '30%']} columns={3} />
      ) : total === 0 ? (
        <EmptyState title={q ? t(`${area}.noMatches`, { q }) : t(`${area}.emptyTitle`)} action={q ? null : emptyAction} />
      ) : (
        <>
          <LightGrid columns={{ initial: '1', sm: '2', lg: '3' }} gap="4" data-testid="party-grid">
            {children}
          </LightGrid>
          <Pager page={page} pages={pages} hrefFor={(target) => pageHref(pathname, q, target)} size="2" />
        </>
      )}
    </Stack>
  );
}

/** ?q and ?page of this list page; page 1 and an empty search stay out of the URL. */
function pageHref(pathname: string, q: string, target: number): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (target > 1) params.set('page', String(target));
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/**
 * The whole list page of /clients and /customers: the frame, its 'Dodaj …'
 * buttons, the `?new=1` panel and the dialog; the page gives its loader's
 * list figures and its cards.
 */
export function PartyListPage({
  area,
  schema,
  names,
  list,
  children,
}: {
  area: PartyArea;
  schema: PartySchema;
  names: readonly PartyField[];
  list: { q: string; page: number; pages: number; total: number; showNew: boolean };
  children: React.ReactNode;
}) {
  const actionData = useActionData<PartyActionData>();
  const { t } = useTranslation();
  const dialog = useCreateDialog();
  return (
    <>
      <PartyListFrame
        area={area}
        q={list.q}
        page={list.page}
        pages={list.pages}
        total={list.total}
        addButton={<AddPartyButton label={t(`${area}.add`)} onOpen={dialog.show} />}
        emptyAction={<AddPartyButton label={t(`${area}.emptyAction`)} onOpen={dialog.show} variant="soft" />}
        panel={list.showNew ? <CreatePartyPanel area={area} schema={schema} names={names} lastResult={actionData?.result} cancelTo={`/${area}`} /> : null}
      >
        {children}
      </PartyListFrame>
      <CreatePartyDialog area={area} schema={schema} names={names} open={dialog.open} onOpenChange={dialog.onOpenChange} />
    </>
  );
}

/**
 * A card of the client or debtor list (docs/screens.md): the name linking to the party's page, the status badge, OIB
 * and city, what the area adds (`children`), the risk score, and anything after it (`after`).
 */
export function PartyCard(props: {
  testId: string;
  to: string;
  name: string;
  oib: string;
  city: string | null;
  riskScore: number | null;
  badge: ReactNode;
  children?: ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <RecordCard
      size="2"
      gap="3"
      testId={props.testId}
      title={
        <LightHeading as="h3" size="3">
          <Link to={props.to}>{props.name}</Link>
        </LightHeading>
      }
      badge={props.badge}
    >
      <LightText size="1" color="gray">
        {t('clients.card.oib', { oib: props.oib })}
        {props.city ? ` · ${props.city}` : ''}
      </LightText>
      {props.children}
      <Stack justify="between" align="center">
        <LightText size="1" color="gray">
          {t('clients.card.risk')}
        </LightText>
        <RiskScore score={props.riskScore} />
      </Stack>
      {props.after}
    </RecordCard>
  );
}
