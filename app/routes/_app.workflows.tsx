import { Button, Card, Flex, Grid, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { Counter, DefinitionCard, InstanceCard } from '~/components/workflows/cards.tsx';
import { DetailsPanel, EditorPanel, TestPanel, type Draft } from '~/components/workflows/panels.tsx';
import { readApiError } from '~/utils/api.server.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { createDefinition, getDefinition, listDefinitions, setDefinitionActive, testDefinition, updateDefinition } from '~/workflows/definitions.server.ts';
import { controlInstance } from '~/workflows/engine.server.ts';
import { handlerNames } from '~/workflows/handlers/index.server.ts';
import { getInstanceDetail, instanceStatusCounts, listInstances } from '~/workflows/instances.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent, unknownIntent } from '~/utils/intent.server.ts';
import { workflowPageIntentSchema, type WorkflowPageIntent } from '~/workflows/schemas.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { pageCount, pageOffset, readListUrl, tabSchema } from '~/utils/list-url.ts';
import { PageHeader } from '~/components/kit/page-header.tsx';

const PAGE_SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TABS = ['instances', 'definitions'] as const;
type Tab = (typeof TABS)[number];
const TAB = tabSchema(TABS, 'instances');

/** Everything lives in the URL: ?tab, ?page; panels ?details= (instance), ?edit= (definition id or 'new'), ?test= (definition). */
function readUrl(url: URL) {
  const list = readListUrl(url);
  return {
    tab: list.read(TAB),
    page: list.page,
    details: list.id('details'),
    edit: list.params.get('edit') === 'new' ? 'new' : list.id('edit'),
    test: list.id('test'),
  };
}

async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if ((await readApiError(error))?.status === 404) return null;
    throw error;
  }
}

const emptyDraft = (): Draft => ({ id: null, name: '', type: 'client_onboarding', description: '', steps: [{ name: '', type: 'automated', handler: '', taskType: '' }] });

/** /workflows (docs/screens.md): four counters, instances and definitions tabs, and every button wired. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const url = readUrl(new URL(request.url));
  const canRun = can(user, 'run:workflow');
  const canEdit = can(user, 'edit:workflow');
  const [counts, instances, definitions, details, editing, testing] = await Promise.all([
    instanceStatusCounts(),
    url.tab === 'instances' ? listInstances({ limit: PAGE_SIZE, offset: pageOffset(url.page, PAGE_SIZE) }) : Promise.resolve(null),
    url.tab === 'definitions' ? listDefinitions({ limit: 1000 }) : Promise.resolve(null),
    url.details ? orNull(getInstanceDetail(url.details)) : Promise.resolve(null),
    canEdit && url.edit && url.edit !== 'new' ? orNull(getDefinition(url.edit)) : Promise.resolve(null),
    canEdit && url.test ? orNull(getDefinition(url.test)) : Promise.resolve(null),
  ]);
  const draft: Draft | null =
    canEdit && url.edit === 'new'
      ? emptyDraft()
      : editing
        ? {
            id: editing.id,
            name: editing.name,
            type: editing.type,
            description: editing.description ?? '',
            steps: editing.steps.map((step) => ({ name: step.name, type: step.type, handler: step.handler ?? '', taskType: step.taskType ?? '' })),
          }
        : null;
  return json({
    ...url,
    counts,
    instances,
    definitions,
    details,
    draft,
    testing: testing ? { id: testing.id, name: testing.name, type: testing.type } : null,
    handlers: canEdit ? handlerNames() : [],
    canRun,
    canEdit,
  });
}

/** The editor's fields (steps[i].name …) back into a draft, in index order. */
function readDraft(formData: FormData): Draft {
  const text = (name: string) => String(formData.get(name) ?? '');
  const indexes = new Set<number>();
  for (const key of formData.keys()) {
    const match = /^steps\[(\d+)\]\./.exec(key);
    if (match) indexes.add(Number(match[1]));
  }
  const steps = [...indexes]
    .sort((a, b) => a - b)
    .map((index) => ({
      name: text(`steps[${index}].name`),
      type: text(`steps[${index}].type`) || 'automated',
      handler: text(`steps[${index}].handler`),
      taskType: text(`steps[${index}].taskType`),
    }));
  const id = text('definitionId');
  return { id: UUID.test(id) ? id : null, name: text('name'), type: text('type'), description: text('description'), steps };
}

/** add-step / remove-step / move-up / move-down change the draft without saving (no JavaScript needed). */
type EditorIntent = Extract<WorkflowPageIntent, { intent: 'save' | 'add-step' | 'move-up' | 'move-down' | 'remove-step' }>;

function editDraft(draft: Draft, edit: Exclude<EditorIntent, { intent: 'save' }>): Draft {
  const steps = [...draft.steps];
  if (edit.intent === 'add-step') return { ...draft, steps: [...steps, { name: '', type: 'automated', handler: '', taskType: '' }] };
  const index = edit.step;
  if (edit.intent === 'remove-step' && steps[index]) steps.splice(index, 1);
  if (edit.intent === 'move-up' && index > 0 && steps[index]) [steps[index - 1], steps[index]] = [steps[index], steps[index - 1]];
  if (edit.intent === 'move-down' && index < steps.length - 1 && steps[index]) [steps[index + 1], steps[index]] = [steps[index], steps[index + 1]];
  return { ...draft, steps };
}

function backTo(request: Request, change: Record<string, string | null>): string {
  const url = new URL(request.url);
  for (const [key, value] of Object.entries(change)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  url.searchParams.delete('index');
  const search = url.searchParams.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

const CONTROL_TOAST = { pause: 'workflows.toast.paused', resume: 'workflows.toast.resumed', restart: 'workflows.toast.restarted' } as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const posted = readIntent(formData, workflowPageIntentSchema);
  if (!posted) return unknownIntent();
  const ip = clientIp(context);
  if (posted.intent === 'save' || posted.intent === 'add-step' || 'step' in posted) return editorAction(request, formData, posted, ip);
  const { intent } = posted;
  const id = String(formData.get('id') ?? '');

  try {
    if (intent === 'pause' || intent === 'resume' || intent === 'restart') {
      const actor = await requirePermission(request, 'run:workflow');
      await controlInstance({ actor, id, control: intent, ip });
      return redirectWithToast(backTo(request, {}), { title: CONTROL_TOAST[intent] });
    }
    if (intent === 'activate' || intent === 'deactivate') {
      const actor = await requirePermission(request, 'edit:workflow');
      await setDefinitionActive({ actor, id, isActive: intent === 'activate', ip });
      return redirectWithToast(backTo(request, {}), { title: intent === 'activate' ? 'workflows.toast.activated' : 'workflows.toast.deactivated' });
    }
    if (intent === 'test') {
      const actor = await requirePermission(request, 'edit:workflow');
      const report = await testDefinition({ actor, definitionId: id, entityId: String(formData.get('entityId') ?? '').trim() });
      return json({ intent: 'test' as const, report, error: null });
    }
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    if (intent === 'test') return json({ intent: 'test' as const, report: null, error: problem.message }, { status: problem.status });
    return redirectWithToast(backTo(request, {}), {
      title: 'workflows.toast.failed',
      description: problem.code,
      params: problem.params,
      variant: 'destructive',
    });
  }

  // Every intent is handled above; readIntent let no other through.
  return unknownIntent();
}

/** The definition editor: a step button changes the draft and shows it again; save stores it. */
async function editorAction(request: Request, formData: FormData, posted: EditorIntent, ip: ReturnType<typeof clientIp>) {
  const actor = await requirePermission(request, 'edit:workflow');
  const draft = readDraft(formData);
  if (posted.intent !== 'save') return json({ intent: 'editor' as const, draft: editDraft(draft, posted), errors: {}, formError: null });
  const input = { name: draft.name, type: draft.type, description: draft.description, steps: draft.steps };
  try {
    const saved = draft.id ? await updateDefinition({ actor, id: draft.id, input, ip }) : await createDefinition({ actor, input, ip });
    return redirectWithToast(`/workflows?tab=definitions#${saved.id}`, { title: 'workflows.toast.saved' });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const errors = problem.errors ?? {};
    return json({ intent: 'editor' as const, draft, errors, formError: Object.keys(errors).length ? null : problem.message }, { status: problem.status });
  }
}

export default function WorkflowsPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  const href = (extra: Record<string, string | number> = {}, tab: Tab = data.tab) => {
    const search = new URLSearchParams({ tab });
    if (tab === data.tab && data.page > 1 && !('page' in extra)) search.set('page', String(data.page));
    for (const [key, value] of Object.entries(extra)) search.set(key, String(value));
    return `/workflows?${search}`;
  };
  const closeHref = href();
  const editorData = actionData && 'draft' in actionData ? actionData : null;
  const draft = editorData?.draft ?? data.draft;
  const testData = actionData && 'report' in actionData ? actionData : null;
  const pages = data.instances ? pageCount(data.instances.total, PAGE_SIZE) : 1;

  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('workflows.title')} subtitle={t('workflows.subtitle')}>
        {data.canEdit ? (
          <Button asChild>
            <Link to={href({ edit: 'new' }, 'definitions')}>{t('workflows.actions.new')}</Link>
          </Button>
        ) : null}
      </PageHeader>

      <Grid columns={{ initial: '2', sm: '4' }} gap="4">
        {(['running', 'completed', 'failed', 'paused'] as const).map((status) => (
          <Counter key={status} status={status} count={data.counts[status]} />
        ))}
      </Grid>

      {data.details ? <DetailsPanel instance={data.details} closeHref={closeHref} canRun={data.canRun} /> : null}
      {draft ? (
        // A new key per change, so the uncontrolled fields show the changed draft.
        <EditorPanel
          key={JSON.stringify(draft)}
          draft={draft}
          handlers={data.handlers}
          errors={editorData?.errors}
          formError={editorData?.formError}
          closeHref={href({}, 'definitions')}
        />
      ) : null}
      {data.testing ? <TestPanel definition={data.testing} report={testData?.report ?? null} error={testData?.error ?? null} closeHref={href({}, 'definitions')} /> : null}

      <TabBar label={t('workflows.tabs.label')} tabs={TABS} active={data.tab} hrefFor={(tab) => `/workflows?tab=${tab}`} labelFor={(tab) => t(`workflows.tabs.${tab}`)} />

      {data.instances ? (
        data.instances.items.length === 0 ? (
          <EmptyCard text={t('workflows.empty.instances')} />
        ) : (
          <Grid columns={{ initial: '1', md: '2' }} gap="3" data-testid="instance-list">
            {data.instances.items.map((instance) => (
              <InstanceCard key={instance.id} instance={instance} detailsHref={href({ details: instance.id })} canRun={data.canRun} />
            ))}
          </Grid>
        )
      ) : null}
      {data.definitions ? (
        data.definitions.items.length === 0 ? (
          <EmptyCard text={t('workflows.empty.definitions')} />
        ) : (
          <Grid columns={{ initial: '1', md: '2' }} gap="3" data-testid="definition-list">
            {data.definitions.items.map((definition) => (
              <DefinitionCard
                key={definition.id}
                definition={definition}
                canEdit={data.canEdit}
                editHref={href({ edit: definition.id })}
                testHref={href({ test: definition.id })}
              />
            ))}
          </Grid>
        )
      ) : null}

      <Pager page={data.page} pages={pages} hrefFor={(page) => href({ page })} />
    </Flex>
  );
}

function EmptyCard({ text }: { text: string }) {
  return (
    <Card size="3">
      <Flex justify="center" py="5">
        <Text color="gray">{text}</Text>
      </Flex>
    </Card>
  );
}
