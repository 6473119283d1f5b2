import { Button, Card, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { DocumentCard } from '~/components/documents/document-card.tsx';
import { InlineUploadForm, UploadDialog, type UploadResult } from '~/components/documents/upload-form.tsx';
import { listDocuments } from '~/documents/documents.server.ts';
import { parseUploadForm, signFromForm } from '~/documents/page-actions.server.ts';
import { DOCUMENT_TABS, documentPageIntentSchema, type DocumentTab } from '~/documents/schemas.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent, unknownIntent } from '~/utils/intent.server.ts';
import { Pager } from '~/components/kit/pager.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';
import { SearchBar } from '~/components/kit/search-bar.tsx';
import { listHref, pageCount, pageOffset, readListUrl, tabSchema } from '~/utils/list-url.ts';

const PAGE_SIZE = 24;

const DOCUMENT_TAB = tabSchema(DOCUMENT_TABS, 'all');

/** /documents (docs/screens.md): search, the five tabs with counts and the page live in the URL (?q=&tab=&page=). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const url = new URL(request.url);
  const { q, page, read } = readListUrl(url);
  const tab: DocumentTab = read(DOCUMENT_TAB);
  const { items, total, counts } = await listDocuments({ q, tab, limit: PAGE_SIZE, offset: pageOffset(page, PAGE_SIZE) });
  return json({
    items,
    total,
    counts,
    q,
    tab,
    page,
    pages: pageCount(total, PAGE_SIZE),
    canSign: can(user, 'sign:document'),
    canUpload: can(user, 'create:document'),
    showUpload: url.searchParams.get('upload') === '1',
  });
}

/** intent=upload (multipart; 'create:document') or intent=sign ('sign:document'); both end with a toast. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ip = clientIp(context);
  const back = new URL(request.url);
  back.searchParams.delete('upload');
  back.searchParams.delete('index');
  const backTo = `${back.pathname}${back.search}`;
  if ((request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    const actor = await requirePermission(request, 'create:document');
    return parseUploadForm({ request, actor, ip, backTo });
  }
  const actor = await requirePermission(request, 'sign:document');
  const formData = await readFormData(request);
  const posted = readIntent(formData, documentPageIntentSchema);
  if (!posted) return unknownIntent();
  return signFromForm({ actor, id: posted.id, ip, backTo });
}

function documentsHref(params: { q: string; tab: DocumentTab; page?: number }, extra: Record<string, string> = {}) {
  return listHref('/documents', { q: params.q, tab: params.tab, page: params.page }, { tab: 'all', page: 1 }, extra);
}

export default function DocumentsPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<UploadResult>();
  const { t } = useTranslation();
  const inlineUpload = data.canUpload && (data.showUpload || (actionData?.intent === 'upload' && !actionData.ok));
  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('documents.title')} subtitle={t('documents.subtitle')}>
        {data.canUpload ? (
          <>
            <UploadDialog defaultOpen={false} />
            <Button asChild className="no-js-only" variant="solid">
              <Link to={documentsHref(data, { upload: '1' })}>{t('documents.uploadButton')}</Link>
            </Button>
          </>
        ) : null}
      </PageHeader>

      {inlineUpload ? (
        <Card size="3">
          <Heading as="h3" size="4" mb="3">
            {t('documents.upload.title')}
          </Heading>
          <InlineUploadForm result={actionData} />
        </Card>
      ) : null}

      <SearchBar placeholder={t('documents.searchPlaceholder')} q={data.q} keep={{ tab: data.tab !== 'all' ? data.tab : null }} submitLabel={t('documents.search')} grow />

      <TabBar
        label={t('documents.title')}
        tabs={DOCUMENT_TABS}
        active={data.tab}
        hrefFor={(tab) => documentsHref({ q: data.q, tab })}
        labelFor={(tab) => t(`documents.tabs.${tab}`)}
        countFor={(tab) => data.counts[tab]}
      />

      {data.items.length === 0 ? (
        <Card>
          <Text color="gray">{data.q ? t('documents.emptySearch') : t('documents.empty')}</Text>
        </Card>
      ) : (
        <Grid columns={{ initial: '1', sm: '2', lg: '3' }} gap="3">
          {data.items.map((document) => (
            <DocumentCard key={document.id} document={document} canSign={data.canSign} />
          ))}
        </Grid>
      )}

      <Pager page={data.page} pages={data.pages} hrefFor={(page) => documentsHref({ ...data, page })} />
    </Flex>
  );
}
