import { Table, Text } from '@radix-ui/themes';
import type { ComponentProps, Key, ReactNode } from 'react';
import { TableHead, type TableColumn } from './table-head.tsx';

/**
 * A table of records: its header row (none without `columns`) and one row per
 * item, `cells` writing an item's cells and `rowProps` a row's attributes
 * (its test id, data-* values). With `empty`, no items show that grey line instead of the table.
 * The same markup as writing Table.Root, TableHead and the rows out; the rest
 * of the props go to Table.Root (size, variant, aria-label, data-testid).
 */
export function DataTable<Item>({
  columns,
  items,
  rowKey,
  rowProps,
  cells,
  empty,
  ...root
}: Omit<ComponentProps<typeof Table.Root>, 'children'> & {
  columns?: TableColumn[];
  items: readonly Item[];
  rowKey: (item: Item) => Key;
  rowProps?: (item: Item) => Omit<ComponentProps<typeof Table.Row>, 'key' | 'children'> & Record<`data-${string}`, string | number | undefined>;
  cells: (item: Item) => ReactNode;
  empty?: string;
  'data-testid'?: string;
}) {
  if (empty !== undefined && items.length === 0) return <Text color="gray">{empty}</Text>;
  return (
    <Table.Root {...root}>
      {columns ? <TableHead columns={columns} /> : null}
      <Table.Body>
        {items.map((item) => (
          <Table.Row key={rowKey(item)} {...rowProps?.(item)}>
            {cells(item)}
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
