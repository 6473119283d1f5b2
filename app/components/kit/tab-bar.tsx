import { TabNav } from '@radix-ui/themes';
import { Link } from '@remix-run/react';

/**
 * A page's tabs as links (`?tab=` lives in the URL, so they work without
 * JavaScript): a named navigation, `tab-<value>` test ids (or another prefix), aria-current on the
 * open tab and, where the page counts its tabs, '(n)' with a
 * `tab-count-<value>` test id.
 */
export function TabBar<Tab extends string>({
  label,
  tabs,
  active,
  hrefFor,
  labelFor,
  countFor,
  testIdPrefix = 'tab',
}: {
  /** The navigation's name (a page with tabs has other navigations: the sidebar, the pager). */
  label: string;
  tabs: readonly Tab[];
  active: Tab;
  hrefFor: (tab: Tab) => string;
  labelFor: (tab: Tab) => string;
  /** The tab's count, or undefined for a tab shown without one. */
  countFor?: (tab: Tab) => number | undefined;
  /** The test ids' prefix: a second bar on a page (a filter beside the tabs) gets its own, so no id repeats. */
  testIdPrefix?: string;
}) {
  return (
    <TabNav.Root aria-label={label}>
      {tabs.map((tab) => {
        const count = countFor?.(tab);
        return (
          <TabNav.Link key={tab} asChild active={active === tab}>
            <Link to={hrefFor(tab)} data-testid={`${testIdPrefix}-${tab}`} aria-current={active === tab ? 'page' : undefined}>
              {labelFor(tab)}
              {count === undefined ? null : (
                <>
                  {' ('}
                  <span data-testid={`${testIdPrefix}-count-${tab}`}>{count}</span>)
                </>
              )}
            </Link>
          </TabNav.Link>
        );
      })}
    </TabNav.Root>
  );
}
