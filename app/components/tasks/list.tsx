import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Button, Flex, TextField } from '@radix-ui/themes';
import { Form, Link, useSubmit } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
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
        <TextField.Root
          name="q"
          type="search"
          defaultValue={state.q}
          placeholder={t('tasks.searchPlaceholder')}
          aria-label={t('tasks.searchLabel')}
          style={{ minWidth: 240, flexGrow: 1 }}
        >
          <TextField.Slot>
            <MagnifyingGlassIcon />
          </TextField.Slot>
        </TextField.Root>
        <select
          name="priority"
          defaultValue={state.priority}
          key={`p-${state.priority}`}
          aria-label={t('tasks.filters.priority')}
          className="native-select"
          onChange={autoSubmit}
          data-testid="priority-filter"
        >
          <option value="all">{t('tasks.filters.allPriorities')}</option>
          {TASK_PRIORITIES.map((priority) => (
            <option key={priority} value={priority}>
              {t(`tasks.priority.${priority}`)}
            </option>
          ))}
        </select>
        <select
          name="assignee"
          defaultValue={state.assignee}
          key={`a-${state.assignee}`}
          aria-label={t('tasks.filters.assignee')}
          className="native-select"
          onChange={autoSubmit}
          data-testid="assignee-filter"
        >
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
    <TabBar
      label={t('tasks.tabsLabel')}
      tabs={TASK_TABS}
      active={state.tab}
      hrefFor={(value) => tasksHref({ ...state, tab: value, page: 1 })}
      labelFor={(value) => t(`tasks.tabs.${value}`)}
      countFor={(value) => counts[value]}
    />
  );
}
