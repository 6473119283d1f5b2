import { parseWithZod } from '@conform-to/zod/v4';
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { AssessmentCard, AssessmentPlaceholders } from '~/components/risk/assessment-card.tsx';
import { AdjustPanel, DetailsPanel, NewAssessmentPanel } from '~/components/risk/panels.tsx';
import { formatPercent } from '~/components/risk/risk-display.tsx';
import { adjustAssessment, assessableEntities, categoryCounts, getAssessment, listAssessments, requestAssessment, type RiskAssessmentDto } from '~/risk/assessments.server.ts';
import { adjustAssessmentFormSchema, ENTITY_TYPES, newAssessmentFormSchema, riskPageIntentSchema } from '~/risk/schemas.ts';
import { RISK_CATEGORIES, type RiskCategory } from '~/risk/scoring.ts';
import { readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { FigureCard } from '~/components/kit/figure-card.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { FilterSelect, SearchBar } from '~/components/kit/search-bar.tsx';
import { Options } from '~/components/kit/fields.tsx';
import { optionalChoiceSchema, pageCount, pageOffset, readListUrl } from '~/utils/list-url.ts';
import { useListLoading } from '~/components/kit/list-loading.ts';

const PAGE_SIZE = 20;
const CATEGORY = optionalChoiceSchema(RISK_CATEGORIES);
const ENTITY_TYPE = optionalChoiceSchema(ENTITY_TYPES);
type EntityType = (typeof ENTITY_TYPES)[number];

/** Everything the list shows lives in the URL: ?q, ?category, ?type, ?page; panels: ?details=, ?edit=, ?new=1. */
function readUrl(url: URL) {
  const list = readListUrl(url);
  return {
    q: list.q,
    category: list.read(CATEGORY, 'category'),
    type: list.read(ENTITY_TYPE, 'type'),
    page: list.page,
    details: list.id('details'),
    edit: list.id('edit'),
    showNew: list.showNew,
  };
}

async function findOrNull(id: string | null): Promise<RiskAssessmentDto | null> {
  if (!id) return null;
  try {
    return await getAssessment(id);
  } catch (error) {
    if ((await readApiError(error))?.status === 404) return null;
    throw error;
  }
}

/** /risk (docs/screens.md): three summary cards, the newest assessments, 'Detalji', 'Uredi' (manager), 'Nova procjena'. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const url = readUrl(new URL(request.url));
  const canAdjust = can(user, 'adjust:risk');
  const canAssess = can(user, 'assess:risk');
  const [list, counts, details, edit, entities] = await Promise.all([
    listAssessments({ q: url.q, category: url.category, entityType: url.type, limit: PAGE_SIZE, offset: pageOffset(url.page, PAGE_SIZE) }),
    categoryCounts(),
    findOrNull(url.details),
    canAdjust ? findOrNull(url.edit) : Promise.resolve(null),
    url.showNew && canAssess ? assessableEntities() : Promise.resolve(null),
  ]);
  return json({
    ...list,
    counts,
    q: url.q,
    category: url.category,
    type: url.type,
    page: url.page,
    pages: pageCount(list.total, PAGE_SIZE),
    details,
    edit,
    entities,
    canAdjust,
    canAssess,
  });
}

/** Back to the list as it was (search, filters, page) with the assessment's details open. */
function detailsUrl(request: Request, id: string): string {
  const url = new URL(request.url);
  for (const name of ['new', 'edit', 'details', 'index']) url.searchParams.delete(name);
  url.searchParams.set('details', id);
  return `${url.pathname}?${url.searchParams}`;
}

/** intent=assess ('assess:risk'): a new on-demand assessment; intent=adjust ('adjust:risk', manager): the manual adjustment. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const ip = clientIp(context);
  const intent = readIntent(formData, riskPageIntentSchema)?.intent ?? 'assess';

  if (intent === 'adjust') {
    const actor = await requirePermission(request, 'adjust:risk');
    const submission = parseWithZod(formData, { schema: adjustAssessmentFormSchema });
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
    try {
      const { id, manualAdjustment, notes } = submission.value;
      const adjusted = await adjustAssessment({ actor, id, manualAdjustment, notes, ip });
      return redirectWithToast(detailsUrl(request, adjusted.id), {
        title: 'risk.toast.adjustedTitle',
        description: 'risk.toast.adjusted',
        params: { score: adjusted.score },
      });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
      return json({ intent, result }, { status: problem.status });
    }
  }

  const actor = await requirePermission(request, 'assess:risk');
  const submission = parseWithZod(formData, { schema: newAssessmentFormSchema });
  if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
  try {
    const [entityType, entityId] = submission.value.entity.split(':') as [EntityType, string];
    const assessment = await requestAssessment({ entityType, entityId, actor, notes: submission.value.notes, ip });
    return redirectWithToast(detailsUrl(request, assessment.id), {
      title: 'risk.toast.assessedTitle',
      description: 'risk.toast.assessed',
      params: { name: assessment.entityName ?? '', score: assessment.score },
    });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const result = submission.reply({ formErrors: [problem.message] });
    return json({ intent, result }, { status: problem.status });
  }
}

type Params = { q: string; category: RiskCategory | null; type: EntityType | null; page: number };

function listHref(params: Params, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  if (params.category) search.set('category', params.category);
  if (params.type) search.set('type', params.type);
  if (params.page > 1) search.set('page', String(params.page));
  for (const [key, value] of Object.entries(extra)) search.set(key, value);
  const text = search.toString();
  return text ? `/risk?${text}` : '/risk';
}

export default function RiskPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  const loading = useListLoading();
  const params: Params = { q: data.q, category: data.category, type: data.type, page: data.page };
  const closeHref = listHref(params);
  const adjustResult = actionData?.intent === 'adjust' ? actionData.result : undefined;
  const assessResult = actionData?.intent === 'assess' ? actionData.result : undefined;
  const showNew = data.canAssess && data.entities;

  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('risk.title')} subtitle={t('risk.subtitle')}>
        {data.canAssess ? (
          <Button asChild>
            <Link to={listHref(params, { new: '1' })}>
              <PlusIcon /> {t('risk.actions.new')}
            </Link>
          </Button>
        ) : null}
      </PageHeader>

      <Grid columns={{ initial: '1', sm: '3' }} gap="4">
        {RISK_CATEGORIES.map((category) => (
          <SummaryCard key={category} category={category} count={data.counts[category]} total={data.counts.total} />
        ))}
      </Grid>

      {showNew && data.entities ? <NewAssessmentPanel entities={data.entities} closeHref={closeHref} lastResult={assessResult} /> : null}
      {data.edit ? <AdjustPanel key={data.edit.id} assessment={data.edit} closeHref={closeHref} lastResult={adjustResult} /> : null}
      {data.details ? <DetailsPanel assessment={data.details} closeHref={closeHref} editHref={data.canAdjust ? listHref(params, { edit: data.details.id }) : null} /> : null}

      <SearchBar
        label={t('risk.searchLabel')}
        placeholder={t('risk.searchPlaceholder')}
        q={data.q}
        submitLabel={t('risk.search')}
        clear={data.q || data.category || data.type ? { to: '/risk', label: t('risk.clearFilters') } : null}
        minWidth={260}
        after={
          <Text size="2" color="gray" data-testid="total-count">
            {t('risk.total', { count: data.total })}
          </Text>
        }
      >
        <FilterSelect name="category" label={t('risk.categoryFilter')} value={data.category ?? ''}>
          <option value="">{t('risk.allCategories')}</option>
          <Options items={RISK_CATEGORIES} label={(category) => t(`risk.categories.${category}`)} />
        </FilterSelect>
        <FilterSelect name="type" label={t('risk.entityTypeFilter')} value={data.type ?? ''}>
          <option value="">{t('risk.allEntityTypes')}</option>
          <Options items={ENTITY_TYPES} label={(type) => t(`risk.entityTypes.${type}`)} />
        </FilterSelect>
      </SearchBar>

      <Heading as="h3" size="4">
        {t('risk.listTitle')}
      </Heading>
      {loading ? (
        <AssessmentPlaceholders />
      ) : data.items.length === 0 ? (
        <Card size="3">
          <Flex justify="center" py="5">
            <Text color="gray">{data.q || data.category || data.type ? t('risk.noMatches') : t('risk.empty')}</Text>
          </Flex>
        </Card>
      ) : (
        <Flex direction="column" gap="3" data-testid="assessment-list">
          {data.items.map((assessment) => (
            <AssessmentCard
              key={assessment.id}
              assessment={assessment}
              detailsHref={listHref(params, { details: assessment.id })}
              editHref={data.canAdjust ? listHref(params, { edit: assessment.id }) : null}
            />
          ))}
        </Flex>
      )}

      <Pager page={data.page} pages={data.pages} hrefFor={(page) => listHref({ ...params, page })} label={t('risk.pagination.label')} />
    </Flex>
  );
}

/** docs/screens.md: assessments per category with their share of the total, to one decimal. */
function SummaryCard({ category, count, total }: { category: RiskCategory; count: number; total: number }) {
  const { t } = useTranslation();
  const colour = category === 'low' ? 'green' : category === 'medium' ? 'amber' : 'red';
  const percent = total === 0 ? 0 : (count / total) * 100;
  return (
    <FigureCard
      cardSize="3"
      testId={`summary-${category}`}
      label={t(`risk.summary.${category}`)}
      value={count}
      valueSize="7"
      valueTestId="summary-count"
      colour={colour}
      note={t('risk.summary.share', { percent: formatPercent(percent), total })}
      noteSize="2"
      noteTestId="summary-percent"
    />
  );
}
