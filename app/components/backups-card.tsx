import { Badge, Button, Card, Flex, Heading, Link as RadixLink, Table, Text } from '@radix-ui/themes';
import { useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { BackupStatus } from '../../db/models/enums.ts';
import { formatBytes, formatDateTime } from '~/utils/format.ts';
import { TableHead } from '~/components/kit/table-head.tsx';
import { IntentForm } from '~/components/kit/intent-form.tsx';

export interface BackupListItem {
  id: string;
  status: BackupStatus;
  size: number | null;
  tableCount: number | null;
  rowCount: number | null;
  error: string | null;
  requestedBy: { id: string; name: string } | null;
  createdAt: string;
  completedAt: string | null;
}

const STATUS_COLOR: Record<BackupStatus, 'gray' | 'blue' | 'green' | 'red'> = { pending: 'gray', running: 'blue', completed: 'green', failed: 'red' };
const POLL_MS = 2_000;

/**
 * Settings' backup and export card (docs/screens.md), admin only:
 * 'Stvori sigurnosnu kopiju' posts to the page action (works without
 * JavaScript); 'Izvezi podatke' and each completed backup are plain download
 * links. While a backup is being made the list re-reads itself.
 */
export function BackupsCard({ backups, canBackup, canExport }: { backups: BackupListItem[] | null; canBackup: boolean; canExport: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const creating = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'backup';
  const active = backups?.some((backup) => backup.status === 'pending' || backup.status === 'running') ?? false;
  useWhileActive(active);
  return (
    <Card size="3" data-testid="backups-card">
      <Heading as="h3" size="4" mb="1">
        {t('backups.title')}
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        {t('backups.description')}
      </Text>
      <Flex gap="3" wrap="wrap" mb="3">
        {canBackup ? (
          <IntentForm intent="backup">
            <Button type="submit" disabled={creating} data-testid="create-backup">
              {creating ? t('backups.creating') : t('backups.create')}
            </Button>
          </IntentForm>
        ) : null}
        {canExport ? (
          <Button asChild variant="outline">
            <a href="/api/exports/book.zip" download data-testid="export-book" title={t('backups.exportHint')}>
              {t('backups.export')}
            </a>
          </Button>
        ) : null}
      </Flex>
      {backups ? (
        <>
          <Flex justify="between" align="center" mb="2">
            <Heading as="h3" size="3">
              {t('backups.recent')}
            </Heading>
            {/* Without JavaScript the list does not re-read itself: a link to do it by hand. */}
            <noscript>
              <a href="/settings">{t('backups.refresh')}</a>
            </noscript>
          </Flex>
          {backups.length === 0 ? (
            <Text size="2" color="gray">
              {t('backups.empty')}
            </Text>
          ) : (
            <Table.Root variant="surface" size="1" data-testid="backup-list">
              <TableHead
                columns={[t('backups.columns.created'), t('backups.columns.status'), t('backups.columns.size'), t('backups.columns.requestedBy'), t('backups.columns.file')]}
              />
              <Table.Body>
                {backups.map((backup) => (
                  <Table.Row key={backup.id} data-testid={`backup-${backup.id}`} data-status={backup.status}>
                    <Table.Cell>{formatDateTime(backup.createdAt)}</Table.Cell>
                    <Table.Cell>
                      <Badge color={STATUS_COLOR[backup.status]}>{t(`backups.status.${backup.status}`)}</Badge>
                      {backup.status === 'failed' && backup.error ? (
                        <Text as="div" size="1" color="red">
                          {backup.error}
                        </Text>
                      ) : null}
                    </Table.Cell>
                    <Table.Cell>
                      {backup.size === null ? '' : formatBytes(backup.size)}
                      {backup.rowCount !== null ? (
                        <Text as="div" size="1" color="gray">
                          {t('backups.rows', { rows: backup.rowCount, tables: backup.tableCount })}
                        </Text>
                      ) : null}
                    </Table.Cell>
                    <Table.Cell>{backup.requestedBy?.name ?? ''}</Table.Cell>
                    <Table.Cell>
                      {backup.status === 'completed' ? (
                        <RadixLink asChild>
                          <a href={`/api/backups/${backup.id}/download`} download data-testid={`backup-download-${backup.id}`}>
                            {t('backups.download')}
                          </a>
                        </RadixLink>
                      ) : null}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </>
      ) : null}
    </Card>
  );
}

/** Re-reads the page every 2 s while a backup is pending or running, so its completion shows without a reload. */
function useWhileActive(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle') revalidator.revalidate();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [active, revalidator]);
}
