import { Card, Flex, Grid, Heading, Skeleton } from '@radix-ui/themes';

/**
 * What a card list shows instead of its cards: placeholders while the next
 * page loads (`useListLoading` of ./list-loading.ts) and the empty state.
 */

/** The grids of the card lists: two columns (invoices, tasks, e-mail), three (clients, customers). */
const COLUMNS = { 2: { initial: '1', md: '2' }, 3: { initial: '1', sm: '2', lg: '3' } } as const;

/**
 * `count` placeholder cards in the list's grid, a busy region named `label`.
 * `lines` are the widths of the card's lines: a title line, then text lines;
 * `badge` adds the taller line of a card's badge or button row.
 */
export function PlaceholderCards({ count, label, lines, badge, columns = 2 }: { count: number; label: string; lines: readonly string[]; badge?: boolean; columns?: 2 | 3 }) {
  return (
    <Grid columns={COLUMNS[columns]} gap="4" aria-busy="true" aria-label={label}>
      {Array.from({ length: count }, (_, index) => (
        <Card key={index} size="2" data-testid="placeholder-card">
          <Flex direction="column" gap="3">
            {lines.map((width, line) => (
              <Skeleton key={line} height={line === 0 ? '20px' : '14px'} width={width} />
            ))}
            {badge ? <Skeleton height="24px" width="40%" /> : null}
          </Flex>
        </Card>
      ))}
    </Grid>
  );
}

/**
 * The card a list shows when it has nothing: `title` says so (or that a
 * search found nothing) and `action` (e.g. the 'Add …' button) is offered
 * only when there is no filter to blame.
 */
export function EmptyState({ title, action, testId = 'empty-state' }: { title: string; action?: React.ReactNode; testId?: string }) {
  return (
    <Card size="3" data-testid={testId}>
      <Flex direction="column" align="center" gap="3" py="6">
        <Heading as="h3" size="4">
          {title}
        </Heading>
        {action}
      </Flex>
    </Card>
  );
}
