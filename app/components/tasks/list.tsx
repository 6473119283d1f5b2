import { useSubmit } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { Options } from '~/components/kit/fields.tsx';
import { FilterSelect, SearchBar } from '~/components/kit/search-bar.tsx';
import { ASSIGNEE_FILTERS, TASK_PRIORITIES, TASK_TABS, type AssigneeFilter, type TaskTab } from '~/tasks/schemas.ts';
import { listHref } from '~/utils/list-url.ts';

/** The list frame of /tasks (docs/screens.md): search, priority and assignee filters, status tabs with counts, pages — all in the URL. */
export interface TaskListState {
  q: string;
  priority: string;
  assignee: AssigneeFilter;
  tab: TaskTab;
  page?: number;
}

export function tasksHref(state: TaskListState, extra: Record<string, string> = {}): string {
  const { q, priority, assignee, tab, page } = state;
  return listHref('/tasks', { q, priority, assignee, tab, page }, { priority: 'all', assignee: 'all', tab: 'all', page: 1 }, extra);
}

/** One GET form: without JavaScript 'Apply' submits it; with JavaScript a changed select submits at once. */
export function TaskFilters({ state }: { state: TaskListState }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const autoSubmit = (event: React.ChangeEvent<HTMLSelectElement>) => submit(event.currentTarget.form);
  const filtered = Boolean(state.q) || state.priority !== 'all' || state.assignee !== 'all';
  return (
    <SearchBar
      label={t('tasks.searchLabel')}
      placeholder={t('tasks.searchPlaceholder')}
      q={state.q}
      keep={{ tab: state.tab !== 'all' ? state.tab : null }}
      submitLabel={t('tasks.search')}
      clear={filtered ? { to: tasksHref({ q: '', priority: 'all', assignee: 'all', tab: state.tab }), label: t('tasks.clearFilters') } : null}
      minWidth={240}
      grow
    >
      <FilterSelect name="priority" label={t('tasks.filters.priority')} value={state.priority} onChange={autoSubmit} testId="priority-filter">
        <option value="all">{t('tasks.filters.allPriorities')}</option>
        <Options items={TASK_PRIORITIES} label={(priority) => t(`tasks.priority.${priority}`)} />
      </FilterSelect>
      <FilterSelect name="assignee" label={t('tasks.filters.assignee')} value={state.assignee} onChange={autoSubmit} testId="assignee-filter">
        <Options items={ASSIGNEE_FILTERS} label={(value) => t(`tasks.filters.assignees.${value}`)} />
      </FilterSelect>
    </SearchBar>
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
