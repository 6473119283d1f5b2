import { Table } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/** A heading, or one that is markup or aligned (amounts stand right-aligned under `justify: 'end'`). */
export type TableColumn = string | { label: ReactNode; justify?: 'start' | 'center' | 'end' };

/** A table's header row, one column heading per entry: the same markup as writing the cells out. */
export function TableHead({ columns }: { columns: TableColumn[] }) {
  return (
    <Table.Header>
      <Table.Row>
        {columns.map((column, index) =>
          typeof column === 'string' ? (
            <Table.ColumnHeaderCell key={index}>{column}</Table.ColumnHeaderCell>
          ) : (
            <Table.ColumnHeaderCell key={index} justify={column.justify}>
              {column.label}
            </Table.ColumnHeaderCell>
          ),
        )}
      </Table.Row>
    </Table.Header>
  );
}
