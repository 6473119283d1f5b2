import { Callout, Flex, Grid, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { decodeRefusal } from '~/utils/refusals.ts';
import { useListLoading } from '~/components/kit/list-loading.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { pageCount } from '~/utils/list-url.ts';
import { EmptyState, PlaceholderCards } from '~/components/kit/list-states.tsx';
import { TaskFilters, TaskTabs, tasksHref } from '~/components/tasks/list.tsx';
import { TaskCard } from '~/components/tasks/task-card.tsx';
import { TaskDetailPanel } from '~/components/tasks/task-detail.tsx';
import { EditTaskPanel, NewTaskDialog, NewTaskPanel, type TaskFormData } from '~/components/tasks/task-forms.tsx';
import { useToast } from '~/components/toaster.tsx';
import { getKycApplication } from '~/onboarding/kyc-decision.server.ts';
import type { KycRefusalData } from '~/onboarding/kyc-page.server.ts';
import { handleTaskIntent, PAGE_SIZE, taskListParams, type TaskRefusalData } from '~/tasks/page.server.ts';
import { dueDay, TASK_ERRORS, taskPageIntentSchema } from '~/tasks/schemas.ts';
import { assignableUsers, getTask, listTasks, taskTabCounts, type TaskDetailDto } from '~/tasks/tasks.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent, unknownIntent } from '~/utils/intent.server.ts';
import { CreateButton, useCreateDialog } from '~/components/kit/create-form.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';

/** A task named in the URL that does not exist (any more) just closes its panel. */
async function taskOrNull(id: string | null): Promise<TaskDetailDto | null> {
  if (!id) return null;
  try {
    return await getTask(id);
  } catch (error) {
    if (error instanceof Response && error.status === 404) return null;
    throw error;
  }
}

/** /tasks (docs/screens.md): newest first; ?q ?priority ?assignee (all|me|unassigned) ?tab ?page; ?new=1, ?task=<id> (details), ?edit=<id>. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const params = taskListParams(request);
  const filters = { q: params.q, priority: params.priority, assignee: params.assignee, actorId: user.id };
  const [{ tasks, total }, counts, users, detail, editing] = await Promise.all([
    listTasks({ ...filters, status: params.tab, limit: params.limit, offset: params.offset }),
    taskTabCounts(filters),
    assignableUsers(),
    taskOrNull(params.detailId),
    taskOrNull(params.editId),
  ]);
  // A KYC task's details show its client's review with the decisions.
  const kyc = detail && detail.type === 'kyc_verification' && detail.entityType === 'client' && detail.entityId ? await getKycApplication(detail.entityId) : null;
  return json({
    kyc,
    canDecideKyc: can(user, 'decide:kyc'),
    state: { q: params.q, priority: params.priority, assignee: params.assignee, tab: params.tab, page: params.page },
    tasks,
    total,
    counts,
    pages: pageCount(total, PAGE_SIZE),
    users,
    showNew: params.showNew,
    entity: params.entity,
    detail,
    editing: editing ? { ...editing, dueDay: dueDay(editing.dueDate) } : null,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const parsed = readIntent(formData, taskPageIntentSchema);
  if (!parsed) return unknownIntent();
  const { intent } = parsed;
  const permission = intent === 'create' ? 'create:task' : intent === 'kyc' ? 'decide:kyc' : 'work:task';
  const actor = await requirePermission(request, permission);
  return handleTaskIntent(formData, { actor, ip: clientIp(context), request });
}

type ActionData = TaskFormData | TaskRefusalData | KycRefusalData;
const isKycRefusal = (data: ActionData | undefined): data is KycRefusalData => data?.intent === 'kyc';
const isRefusal = (data: ActionData | undefined): data is TaskRefusalData => Boolean(data && 'message' in data && !isKycRefusal(data));

export default function TasksPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useRefusalTexts();
  const loading = useListLoading();
  const dialog = useCreateDialog();
  const refusal = isRefusal(actionData) ? actionData : null;
  const kycRefusal = isKycRefusal(actionData) ? actionData : null;
  const formData = actionData && !isRefusal(actionData) && !isKycRefusal(actionData) ? actionData : null;
  // A refused create post (without JavaScript) comes back into the panel with what was entered.
  const showPanel = data.showNew || formData?.intent === 'create';
  const filtered = Boolean(data.state.q) || data.state.priority !== 'all' || data.state.assignee !== 'all';
  const listHref = tasksHref(data.state);

  useEffect(() => {
    if (refusal) toast({ title: 'tasks.toast.errorTitle', description: 'tasks.toast.updateFailed', variant: 'destructive' });
    // A new refusal from the server, not a re-render, shows the toast.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refusal]);
  useEffect(() => {
    if (kycRefusal) {
      const refusal = decodeRefusal(kycRefusal.message);
      toast({ title: 'kyc.toast.errorTitle', description: refusal?.code ?? 'kyc.toast.errorTitle', params: refusal?.params, variant: 'destructive' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kycRefusal]);

  const addButton = (label: string, variant?: 'soft') => <CreateButton to={tasksHref(data.state, { new: '1' })} onOpen={dialog.show} label={label} variant={variant} />;
  const detailRefusal = refusal && data.detail && refusal.id === data.detail.id ? refusal : null;

  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('tasks.title')}>{addButton(t('tasks.add'))}</PageHeader>
      {showPanel ? <NewTaskPanel users={data.users} entity={data.entity} lastResult={formData?.intent === 'create' ? formData.result : undefined} cancelTo={listHref} /> : null}
      {data.editing ? (
        data.editing.status === 'pending' || data.editing.status === 'in_progress' ? (
          <EditTaskPanel
            key={data.editing.id}
            task={data.editing}
            users={data.users}
            lastResult={formData?.intent === 'edit' && formData.id === data.editing.id ? formData.result : undefined}
            cancelTo={listHref}
          />
        ) : (
          <Callout.Root color="amber" role="status">
            <Callout.Text>{errorText([TASK_ERRORS.notOpen])}</Callout.Text>
          </Callout.Root>
        )
      ) : null}
      {data.detail ? (
        <>
          {detailRefusal ? <AlertCallout>{errorText([detailRefusal.message])}</AlertCallout> : null}
          <TaskDetailPanel
            task={data.detail}
            closeTo={listHref}
            editTo={tasksHref(data.state, { edit: data.detail.id })}
            kyc={data.kyc}
            canDecideKyc={data.canDecideKyc}
            kycRefusal={kycRefusal}
          />
        </>
      ) : null}
      <TaskFilters state={data.state} />
      <Flex justify="between" align="center" wrap="wrap" gap="2">
        <TaskTabs state={data.state} counts={data.counts} />
        <Text size="2" color="gray" data-testid="total-count">
          {t('tasks.total', { count: data.total })}
        </Text>
      </Flex>
      {loading ? (
        <PlaceholderCards count={4} label={t('tasks.loading')} lines={['60%', '90%', '50%']} badge />
      ) : data.tasks.length === 0 ? (
        <EmptyState
          title={filtered || data.state.tab !== 'all' ? t('tasks.noMatches') : t('tasks.empty')}
          action={filtered || data.state.tab !== 'all' ? null : addButton(t('tasks.emptyAction'), 'soft')}
        />
      ) : (
        <>
          <Grid columns={{ initial: '1', md: '2' }} gap="4" data-testid="task-grid">
            {data.tasks.map((task) => (
              <TaskCard key={task.id} task={task} state={data.state} users={data.users} refusal={refusal?.id === task.id ? refusal : null} />
            ))}
          </Grid>
          <Pager page={data.state.page} pages={data.pages} hrefFor={(page) => tasksHref({ ...data.state, page })} />
        </>
      )}
      <NewTaskDialog users={data.users} entity={data.entity} open={dialog.open} onOpenChange={dialog.onOpenChange} />
    </Flex>
  );
}
