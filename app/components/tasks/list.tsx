import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Grid, Heading, Skeleton, TabNav, TextField } from '@radix-ui/themes';
import { Form, Link, useSubmit } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ASSIGNEE_FILTERS, TASK_PRIORITIES, TASK_TABS, type AssigneeFilter, type TaskTab } from '~/tasks/schemas.ts';

/** The list frame of /tasks (docs/screens.md): search, priority and assignee filters, status tabs with counts, pages — all in the URL. */
export interface TaskListState {
  q: string;
  priority: string;
  assignee: AssigneeFilter;
  tab: TaskTab;
  page?: number;
}

export function tasksHref(state: TaskListState, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  if (state.q) search.set('q', state.q);
  if (state.priority !== 'all') search.set('priority', state.priority);
  if (state.assignee !== 'all') search.set('assignee', state.assignee);
  if (state.tab !== 'all') search.set('tab', state.tab);
  if (state.page && state.page > 1) search.set('page', String(state.page));
  for (const [key, value] of Object.entries(extra)) search.set(key, value);
  const text = search.toString();
  return text ? `/tasks?${text}` : '/tasks';
}

/** One GET form: without JavaScript 'Apply' submits it; with JavaScript a changed select submits at once. */
export function TaskFilters({ state }: { state: TaskListState }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const autoSubmit = (event: React.ChangeEvent<HTMLSelectElement>) => submit(event.currentTarget.form);
  const filtered = Boolean(state.q) || state.priority !== 'all' || state.assignee !== 'all';
  return (
    <Form method="get" role="search" aria-label={t('tasks.searchLabel')}>
      {state.tab !== 'all' ? <input type="hidden" name="tab" value={state.tab} /> : null}
      <Flex gap="2" align="center" wrap="wrap">
        <TextField.Root name="q" type="search" defaultValue={state.q} placeholder={t('tasks.searchPlaceholder')} aria-label={t('tasks.searchLabel')} style={{ minWidth: 240, flexGrow: 1 }}>
          <TextField.Slot>
            <MagnifyingGlassIcon />
          </TextField.Slot>
        </TextField.Root>
        <select name="priority" defaultValue={state.priority} key={`p-${state.priority}`} aria-label={t('tasks.filters.priority')} className="native-select" onChange={autoSubmit} data-testid="priority-filter">
          <option value="all">{t('tasks.filters.allPriorities')}</option>
          {TASK_PRIORITIES.map((priority) => (
            <option key={priority} value={priority}>
              {t(`tasks.priority.${priority}`)}
            </option>
          ))}
        </select>
        <select name="assignee" defaultValue={state.assignee} key={`a-${state.assignee}`} aria-label={t('tasks.filters.assignee')} className="native-select" onChange={autoSubmit} data-testid="assignee-filter">
          {ASSIGNEE_FILTERS.map((value) => (
            <option key={value} value={value}>
              {t(`tasks.filters.assignees.${value}`)}
            </option>
          ))}
        </select>
        <Button type="submit" variant="soft">
          {t('tasks.search')}
        </Button>
        {filtered ? (
          <Button asChild variant="ghost" color="gray">
            <Link to={tasksHref({ q: '', priority: 'all', assignee: 'all', tab: state.tab })}>{t('tasks.clearFilters')}</Link>
          </Button>
        ) : null}
      </Flex>
    </Form>
  );
}

export function TaskTabs({ state, counts }: { state: TaskListState; counts: Record<TaskTab, number> }) {
  const { t } = useTranslation();
  return (
    <TabNav.Root aria-label={t('tasks.tabsLabel')}>
      {TASK_TABS.map((value) => (
        <TabNav.Link key={value} asChild active={state.tab === value}>
          <Link to={tasksHref({ ...state, tab: value, page: 1 })} data-testid={`tab-${value}`} aria-current={state.tab === value ? 'page' : undefined}>
            {t(`tasks.tabs.${value}`)} (<span data-testid={`tab-count-${value}`}>{counts[value]}</span>)
          </Link>
        </TabNav.Link>
      ))}
    </TabNav.Root>
  );
}

export function PlaceholderCards() {
  const { t } = useTranslation();
  return (
    <Grid columns={{ initial: '1', md: '2' }} gap="4" aria-busy="true" aria-label={t('tasks.loading')}>
      {Array.from({ length: 4 }, (_, index) => (
        <Card key={index} size="2" data-testid="placeholder-card">
          <Flex direction="column" gap="3">
            <Skeleton height="20px" width="60%" />
            <Skeleton height="14px" width="90%" />
            <Skeleton height="14px" width="50%" />
            <Skeleton height="24px" width="40%" />
          </Flex>
        </Card>
      ))}
    </Grid>
  );
}

export function EmptyState({ filtered, action }: { filtered: boolean; action: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card size="3" data-testid="empty-state">
      <Flex direction="column" align="center" gap="3" py="6">
        <Heading as="h3" size="4">
          {filtered ? t('tasks.noMatches') : t('tasks.empty')}
        </Heading>
        {filtered ? null : action}
      </Flex>
    </Card>
  );
}
