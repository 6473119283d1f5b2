import { Button, Card, Flex, Text } from '@radix-ui/themes';
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requirePermission } from '~/auth/permissions.server.ts';
import { listOutbox, readOutboxHtml, readOutboxMessage } from '~/email/logs.server.ts';
import { getEnv } from '~/env.server.ts';
import { formatBytes } from '~/utils/format.ts';
import { PageHeader } from '~/components/kit/page-header.tsx';

/** The local outbox (README.md): without SMTP_URL, mail is written to DATA_DIR/outbox; ?message=<file> shows one. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all');
  const name = new URL(request.url).searchParams.get('message');
  const [files, source, html] = await Promise.all([listOutbox(), name ? readOutboxMessage(name) : null, name ? readOutboxHtml(name) : null]);
  return json({ smtp: Boolean(getEnv().SMTP_URL), files, selected: name && source !== null ? { name, source, html } : null, missing: Boolean(name && source === null) });
}

export default function OutboxPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('email.outbox.title')}>
        <Button asChild variant="soft">
          <Link to="/email-automation">{t('email.outbox.back')}</Link>
        </Button>
      </PageHeader>
      {data.smtp ? null : (
        <Text size="2" color="gray">
          {t('email.outbox.description')}
        </Text>
      )}
      {data.missing ? (
        <Text size="2" color="red" role="alert">
          {t('email.outbox.notFound')}
        </Text>
      ) : null}
      {data.selected ? (
        <Card size="2" data-testid="outbox-message">
          <Flex direction="column" gap="3">
            <Text size="2" weight="bold">
              {data.selected.name}
            </Text>
            {data.selected.html ? (
              // Sandboxed: nothing in a message can run script or reach the page.
              <iframe title={data.selected.name} sandbox="" srcDoc={data.selected.html} style={{ width: '100%', height: 480, border: 0, background: 'white' }} />
            ) : null}
            <details>
              <summary>{t('email.outbox.source')}</summary>
              <pre style={{ whiteSpace: 'pre-wrap', fontSize: 12, maxHeight: 400, overflow: 'auto' }}>{data.selected.source}</pre>
            </details>
          </Flex>
        </Card>
      ) : null}
      {data.files.length === 0 ? (
        <Card size="3">
          <Text size="2">{t('email.outbox.empty')}</Text>
        </Card>
      ) : (
        <Flex direction="column" gap="1" data-testid="outbox-list">
          {data.files.map((file) => (
            <Link key={file.name} to={`?message=${encodeURIComponent(file.name)}`}>
              <Text size="2">
                {file.name} · {formatBytes(file.size)}
              </Text>
            </Link>
          ))}
        </Flex>
      )}
    </Flex>
  );
}
