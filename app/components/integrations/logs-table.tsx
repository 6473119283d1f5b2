import { Flex, Table, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import type { IntegrationLogDto } from '~/integrations/integrations.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { OutcomeBadge } from './display.tsx';
import { Pager } from '~/components/kit/pager.tsx';
import { DataTable } from '~/components/kit/data-table.tsx';

/** Every call of one integration: time, operation, duration, outcome, message; paginated in the URL. */
export function IntegrationLogsTable({ logs, page, pages, hrefFor }: { logs: IntegrationLogDto[]; page: number; pages: number; hrefFor: (page: number) => string }) {
  const { t } = useTranslation();
  if (logs.length === 0) return <Text color="gray">{t('integrations.logs.empty')}</Text>;
  return (
    <Flex direction="column" gap="3">
      <DataTable
        variant="surface"
        data-testid="integration-logs"
        columns={[t('integrations.logs.time'), t('integrations.logs.operation'), t('integrations.logs.duration'), t('integrations.logs.outcome'), t('integrations.logs.message')]}
        items={logs}
        rowKey={(log) => log.id}
        cells={(log) => (
          <>
            <Table.Cell>{formatDateTime(log.createdAt)}</Table.Cell>
            <Table.Cell>
              <code>{log.operation}</code>
            </Table.Cell>
            <Table.Cell>{t('integrations.logs.ms', { ms: log.durationMs })}</Table.Cell>
            <Table.Cell>
              <OutcomeBadge success={log.success} />
            </Table.Cell>
            <Table.Cell>{log.message}</Table.Cell>
          </>
        )}
      />
      <Pager page={page} pages={pages} hrefFor={hrefFor} />
    </Flex>
  );
}
