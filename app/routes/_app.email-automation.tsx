import { parseWithZod } from '@conform-to/zod/v4';
import { Button, Flex, Grid, Text } from '@radix-ui/themes';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TabBar } from '~/components/kit/tab-bar.tsx';
import { clientIp } from '~/auth/login.server.ts';
import { can, requirePermission } from '~/auth/permissions.server.ts';
import { CampaignDialog, CampaignPanel } from '~/components/email/campaign-form.tsx';
import { EmptyState, PlaceholderCards } from '~/components/kit/list-states.tsx';
import { CampaignCard, LOG_LIMIT, LogRow, SummaryCards, TemplateCard } from '~/components/email/lists.tsx';
import { TemplateDialog, TemplateEditPanel, TemplatePanel, TemplatePreviewPanel, type EmailActionData } from '~/components/email/template-form.tsx';
import { selectRows } from '~/db.server.ts';
import { createCampaign, listCampaigns } from '~/email/campaigns.server.ts';
import { emailSummary, listLogs } from '~/email/logs.server.ts';
import { previewTemplate } from '~/email/render.server.ts';
import { campaignCreateSchema, emailPageIntentSchema, templateFormSchema } from '~/email/schemas.ts';
import { createTemplate, listTemplates, updateTemplate, type SavedTemplateDto } from '~/email/templates.server.ts';
import { getEnv } from '~/env.server.ts';
import { readApiError } from '~/utils/api.server.ts';
import type { ToastInput } from '~/utils/toast.ts';
import { redirectWithToast, toastHeaders } from '~/utils/toast.server.ts';
import { readFormData } from '~/utils/form-data.server.ts';
import { readIntent, unknownIntent } from '~/utils/intent.server.ts';
import { useListLoading } from '~/components/kit/list-loading.ts';
import { readListUrl, tabSchema } from '~/utils/list-url.ts';
import { CreateButton, useCreateDialog } from '~/components/kit/create-form.tsx';
import { PageHeader } from '~/components/kit/page-header.tsx';

const TABS = ['templates', 'campaigns', 'logs'] as const;
type Tab = (typeof TABS)[number];
const PLACEHOLDERS: Record<Tab, number> = { templates: 4, campaigns: 3, logs: 5 };

const TAB = tabSchema(TABS, 'templates');
const hrefOf = (tab: Tab, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams(tab === 'templates' ? {} : { tab });
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const search = params.toString();
  return search ? `/email-automation?${search}` : '/email-automation';
};

/**
 * /email-automation (docs/screens.md): ?tab=templates|campaigns|logs, ?new=template|campaign (the forms without JavaScript),
 * ?edit=<template id> (the edit form) and ?preview=<template id> (rendered with sample data, server-side).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePermission(request, 'read:all');
  const list = readListUrl(request);
  const params = list.params;
  const tab = list.read(TAB);
  const newForm = params.get('new');
  const [summary, templates, campaigns, logs, activeTemplates, clients] = await Promise.all([
    emailSummary(),
    tab === 'templates' ? listTemplates({ limit: 500 }) : null,
    tab === 'campaigns' ? listCampaigns({ limit: 100 }) : null,
    tab === 'logs' ? listLogs({ limit: LOG_LIMIT }) : null,
    tab === 'campaigns' ? listTemplates({ activeOnly: true, limit: 500 }) : null,
    tab === 'campaigns'
      ? selectRows<{ id: string; company_name: string }>(`SELECT id, company_name FROM clients WHERE email IS NOT NULL AND btrim(email) <> '' ORDER BY company_name, id LIMIT 1000`)
      : null,
  ]);
  const templateList = templates?.templates ?? [];
  const editId = tab === 'templates' ? params.get('edit') : null;
  const previewId = tab === 'templates' ? params.get('preview') : null;
  const editing = editId && can(user, 'edit:email_template') ? (templateList.find((template) => template.id === editId) ?? null) : null;
  const previewing = previewId ? (templateList.find((template) => template.id === previewId) ?? null) : null;
  return json({
    tab,
    editing,
    previewing: previewing ? { id: previewing.id, name: previewing.name, ...previewTemplate(previewing) } : null,
    showNew: tab === 'templates' && newForm === 'template' ? 'template' : tab === 'campaigns' && newForm === 'campaign' ? 'campaign' : null,
    summary,
    templates: templateList,
    campaigns: campaigns?.campaigns ?? [],
    logs: logs?.logs ?? [],
    logTotal: logs?.total ?? 0,
    choices: {
      templates: (activeTemplates?.templates ?? []).map((template) => ({ id: template.id, name: template.name })),
      clients: (clients ?? []).map((client) => ({ id: client.id, companyName: client.company_name })),
    },
    canEditTemplates: can(user, 'edit:email_template'),
    canEditCampaigns: can(user, 'edit:email_campaign'),
    outbox: !getEnv().SMTP_URL,
  });
}

/** The success toast of a saved template; it names the template it replaced as the active one of its trigger. */
function savedToast(saved: SavedTemplateDto, description: string): ToastInput {
  if (!saved.deactivatedTemplate) return { title: 'email.toast.successTitle', description };
  return {
    title: 'email.toast.successTitle',
    description: `${description}Switched`,
    params: { name: saved.name, trigger: saved.trigger, deactivated: saved.deactivatedTemplate.name },
  };
}

/** Intents: createTemplate, updateTemplate, toggleTemplate, createCampaign (manager and up; the domain refuses anyone else). */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const parsed = readIntent(formData, emailPageIntentSchema);
  if (!parsed) return unknownIntent();
  const { intent } = parsed;
  const ip = clientIp(context);
  const viaDialog = formData.get('via') === 'dialog';

  if (intent === 'toggleTemplate') {
    const actor = await requirePermission(request, 'edit:email_template');
    let saved: SavedTemplateDto;
    try {
      saved = await updateTemplate({ actor, id: String(formData.get('id') ?? ''), input: { isActive: formData.get('isActive') === 'true' }, ip });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      return redirectWithToast(hrefOf('templates'), {
        title: 'email.toast.errorTitle',
        description: problem.status === 409 ? 'email.toast.activeConflict' : 'email.toast.updateTemplateFailed',
        variant: 'destructive',
      });
    }
    return redirectWithToast(hrefOf('templates'), savedToast(saved, 'email.toast.templateUpdated'));
  }

  if (intent === 'updateTemplate') {
    const actor = await requirePermission(request, 'edit:email_template');
    const id = String(formData.get('id') ?? '');
    const submission = parseWithZod(formData, { schema: templateFormSchema });
    if (submission.status !== 'success') return json({ intent, id, result: submission.reply() }, { status: 400 });
    let saved: SavedTemplateDto;
    try {
      saved = await updateTemplate({ actor, id, input: submission.value, ip });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
      return json({ intent, id, result }, { status: problem.status });
    }
    // To the preview of what was saved.
    return redirectWithToast(hrefOf('templates', { preview: id }), savedToast(saved, 'email.toast.templateContentUpdated'));
  }

  if (intent === 'createTemplate' || intent === 'createCampaign') {
    const isTemplate = intent === 'createTemplate';
    const actor = await requirePermission(request, isTemplate ? 'edit:email_template' : 'edit:email_campaign');
    const submission = isTemplate ? parseWithZod(formData, { schema: templateFormSchema }) : parseWithZod(formData, { schema: campaignCreateSchema });
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
    let created: SavedTemplateDto | null = null;
    try {
      if (isTemplate) created = await createTemplate({ actor, input: submission.value, ip });
      else await createCampaign({ actor, input: submission.value, ip });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      const result = submission.reply({ formErrors: problem.errors ? [] : [problem.message], fieldErrors: problem.errors ?? {} });
      return json({ intent, result }, { status: problem.status });
    }
    const toast = created ? savedToast(created, 'email.toast.templateCreated') : { title: 'email.toast.successTitle', description: 'email.toast.campaignCreated' };
    if (viaDialog) return json({ intent, result: submission.reply({ resetForm: true }), created: true }, { headers: await toastHeaders(toast) });
    return redirectWithToast(hrefOf(isTemplate ? 'templates' : 'campaigns'), toast);
  }
  return unknownIntent();
}

export default function EmailAutomationPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<EmailActionData>();
  const { t } = useTranslation();
  const navigation = useNavigation();
  const loadingPage = useListLoading();
  const templateDialog = useCreateDialog();
  const campaignDialog = useCreateDialog();
  const nextTab = loadingPage ? readListUrl(new URLSearchParams(navigation.location?.search ?? '')).read(TAB) : data.tab;
  const loading = loadingPage && nextTab !== data.tab;

  const addButton = (label: string, kind: 'template' | 'campaign', variant?: 'soft') => (
    <CreateButton
      to={hrefOf(kind === 'template' ? 'templates' : 'campaigns', { new: kind })}
      onOpen={kind === 'template' ? templateDialog.show : campaignDialog.show}
      label={label}
      variant={variant}
    />
  );
  const showTemplatePanel = data.showNew === 'template' || actionData?.intent === 'createTemplate';
  const showCampaignPanel = data.showNew === 'campaign' || actionData?.intent === 'createCampaign';

  return (
    <Flex direction="column" gap="4">
      <PageHeader title={t('email.title')}>
        {data.outbox ? (
          <Button asChild variant="ghost">
            <Link to="/email-automation/outbox">{t('email.outbox.link')}</Link>
          </Button>
        ) : null}
      </PageHeader>
      <SummaryCards summary={data.summary} />
      <TabBar label={t('email.tabsLabel')} tabs={TABS} active={nextTab} hrefFor={hrefOf} labelFor={(tab) => t(`email.tabs.${tab}`)} />

      {loading ? (
        <PlaceholderCards count={PLACEHOLDERS[nextTab]} label={t(`email.${nextTab}.loading`)} lines={['60%', '40%', '90%', '30%']} />
      ) : data.tab === 'templates' ? (
        <Flex direction="column" gap="4">
          {data.canEditTemplates ? <Flex justify="end">{addButton(t('email.templates.add'), 'template')}</Flex> : null}
          {data.editing ? (
            <TemplateEditPanel
              key={data.editing.id}
              template={data.editing}
              lastResult={actionData?.intent === 'updateTemplate' && actionData.id === data.editing.id ? actionData.result : undefined}
              cancelTo={hrefOf('templates')}
            />
          ) : null}
          {data.previewing ? (
            <TemplatePreviewPanel
              key={data.previewing.id}
              template={data.previewing}
              preview={data.previewing}
              closeTo={hrefOf('templates')}
              editTo={data.canEditTemplates ? hrefOf('templates', { edit: data.previewing.id }) : undefined}
            />
          ) : null}
          {showTemplatePanel && data.canEditTemplates ? (
            <TemplatePanel lastResult={actionData?.intent === 'createTemplate' ? actionData.result : undefined} cancelTo={hrefOf('templates')} />
          ) : null}
          {data.templates.length === 0 ? (
            <EmptyState title={t('email.templates.emptyTitle')} action={data.canEditTemplates ? addButton(t('email.templates.emptyAction'), 'template', 'soft') : null} />
          ) : (
            <Grid columns={{ initial: '1', md: '2' }} gap="4" data-testid="template-grid">
              {data.templates.map((template) => (
                <TemplateCard key={template.id} template={template} canEdit={data.canEditTemplates} />
              ))}
            </Grid>
          )}
        </Flex>
      ) : data.tab === 'campaigns' ? (
        <Flex direction="column" gap="4">
          {data.canEditCampaigns ? <Flex justify="end">{addButton(t('email.campaigns.add'), 'campaign')}</Flex> : null}
          {showCampaignPanel && data.canEditCampaigns ? (
            <CampaignPanel lastResult={actionData?.intent === 'createCampaign' ? actionData.result : undefined} cancelTo={hrefOf('campaigns')} choices={data.choices} />
          ) : null}
          {data.campaigns.length === 0 ? (
            <EmptyState title={t('email.campaigns.emptyTitle')} action={data.canEditCampaigns ? addButton(t('email.campaigns.emptyAction'), 'campaign', 'soft') : null} />
          ) : (
            <Grid columns={{ initial: '1', md: '2' }} gap="4" data-testid="campaign-grid">
              {data.campaigns.map((campaign) => (
                <CampaignCard key={campaign.id} campaign={campaign} />
              ))}
            </Grid>
          )}
        </Flex>
      ) : data.logs.length === 0 ? (
        <EmptyState title={t('email.logs.emptyTitle')} action={null} />
      ) : (
        <Flex direction="column" gap="2" data-testid="log-list">
          {data.logs.map((log) => (
            <LogRow key={log.id} log={log} />
          ))}
          {data.logTotal > data.logs.length ? (
            <Text size="1" color="gray">
              {t('email.logs.shown', { shown: data.logs.length, total: data.logTotal })}
            </Text>
          ) : null}
        </Flex>
      )}
      {data.canEditTemplates ? <TemplateDialog open={templateDialog.open} onOpenChange={templateDialog.onOpenChange} /> : null}
      {data.canEditCampaigns ? <CampaignDialog open={campaignDialog.open} onOpenChange={campaignDialog.onOpenChange} choices={data.choices} /> : null}
    </Flex>
  );
}
