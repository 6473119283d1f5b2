import { getInputProps, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Badge, Button, Flex, Grid, Link as RadixLink, Table, Text, TextField } from '@radix-ui/themes';
import { useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { AgreementDto } from '~/agreements/agreements.server.ts';
import { agreementTermsSchema, FEE_MODEL_OPTIONS } from '~/agreements/schemas.ts';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import { Field, FormErrors } from '~/components/forms.tsx';
import { CreateButton, CreateDialog, CreatePanel, useCreateDialog } from '~/components/kit/create-form.tsx';
import { Options, SelectField } from '~/components/kit/fields.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { formatDate, formatEur } from '~/utils/format.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';

/**
 * The client page's 'Factoring agreement' section (docs/screens.md#pages): the version in
 * force today (or why financing is not possible without one), every version with its
 * PDF, the create/revise form (a `?agreement=edit` panel without JavaScript, a
 * dialog with it) and a version's 'send for signature' and 'mark signed'.
 */
type Agreement = AgreementDto;
export type AgreementFormResult = SubmissionResult<string[]>;
export interface AgreementActionData {
  intent: 'agreement-create' | 'agreement-revise';
  result: AgreementFormResult;
  created?: boolean;
}

type FormValues = Record<string, string>;

const TERM_FIELDS = [
  'number',
  'effectiveFrom',
  'validFrom',
  'validUntil',
  'advanceRate',
  'feeModel',
  'feeRate',
  'minimumFee',
  'adminFee',
  'documentationFee',
  'recourse',
  'recourseDays',
  'maxTenorDays',
  'disclosed',
  'requiresDebtorConfirmation',
  'concentrationLimit',
  'concentrationThreshold',
] as const;

/** The form's starting values: the latest version's terms (a revision from today when it is signed), else a blank agreement. */
function defaultsOf(latest: Agreement | null, today: string): FormValues {
  if (!latest)
    return {
      effectiveFrom: today,
      feeModel: 'discount_30',
      recourse: 'true',
      recourseDays: '60',
      maxTenorDays: '120',
      disclosed: 'true',
      requiresDebtorConfirmation: 'false',
      concentrationLimit: '30',
      concentrationThreshold: '0',
    };
  const values: FormValues = {};
  for (const field of TERM_FIELDS) {
    const value = latest[field];
    values[field] = value === null || value === undefined ? '' : String(value);
  }
  if (latest.signatureStatus === 'signed') values.effectiveFrom = latest.effectiveFrom > today ? latest.effectiveFrom : today;
  return values;
}

function useAgreementForm(id: string, lastResult: AgreementFormResult | undefined, defaultValue: FormValues) {
  return useForm<FormValues>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: agreementTermsSchema }) as Submission<FormValues>,
  });
}

function AgreementFields({ form, fields }: { form: ReturnType<typeof useAgreementForm>[0]; fields: ReturnType<typeof useAgreementForm>[1] }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  const input = (name: (typeof TERM_FIELDS)[number], props: Record<string, unknown>) => (
    <Field key={name} label={t(`agreements.fields.${name}`)} inputProps={{ ...getInputProps(fields[name], { type: 'text' }), ...props }} errors={errorText(fields[name].errors)} />
  );
  const yesNo = (name: 'recourse' | 'disclosed' | 'requiresDebtorConfirmation') => (
    <SelectField label={t(`agreements.fields.${name}`)} meta={fields[name]} errors={errorText(fields[name].errors)} selectProps={{ required: true }}>
      <option value="true">{t('agreements.yes')}</option>
      <option value="false">{t('agreements.no')}</option>
    </SelectField>
  );
  const money = { type: 'number', step: '0.01', min: '0', inputMode: 'decimal' };
  return (
    <Flex direction="column" gap="3">
      <Grid columns={{ initial: '1', sm: '2' }} gap="3">
        {input('number', { required: true, maxLength: 50, placeholder: 'UF-2026-0001' })}
        {input('effectiveFrom', { type: 'date', required: true })}
        {input('validFrom', { type: 'date' })}
        {input('validUntil', { type: 'date' })}
        {input('advanceRate', { type: 'number', step: '0.01', min: '0.01', max: '100', inputMode: 'decimal', required: true })}
        <SelectField label={t('agreements.fields.feeModel')} meta={fields.feeModel} errors={errorText(fields.feeModel.errors)} selectProps={{ required: true }}>
          <Options items={FEE_MODEL_OPTIONS} label={(model) => t(`agreements.feeModels.${model}`)} />
        </SelectField>
        {input('feeRate', { type: 'number', step: '0.0001', min: '0', max: '100', inputMode: 'decimal', required: true })}
        {input('minimumFee', money)}
        {input('adminFee', money)}
        {input('documentationFee', money)}
        {yesNo('recourse')}
        {input('recourseDays', { type: 'number', step: '1', min: '0', max: '3650' })}
        {input('maxTenorDays', { type: 'number', step: '1', min: '1', max: '3650', required: true })}
        {yesNo('disclosed')}
        {yesNo('requiresDebtorConfirmation')}
        {input('concentrationLimit', { type: 'number', step: '0.01', min: '0.01', max: '100', inputMode: 'decimal' })}
        {input('concentrationThreshold', money)}
      </Grid>
      <FormErrors errors={errorText(form.errors)} />
    </Flex>
  );
}

function feeText(t: (key: string, options?: Record<string, unknown>) => string, agreement: Agreement) {
  return t(`agreements.feeText.${agreement.feeModel}`, { rate: agreement.feeRate.toLocaleString('hr-HR', { maximumFractionDigits: 4 }) });
}

function InForce({ agreement }: { agreement: Agreement }) {
  const { t } = useTranslation();
  return (
    <Facts
      rows={[
        [t('agreements.facts.number'), `${agreement.number} (v${agreement.version})`],
        [t('agreements.facts.effectiveFrom'), formatDate(agreement.effectiveFrom)],
        [
          t('agreements.facts.validity'),
          t('agreements.validity', { from: formatDate(agreement.validFrom), until: agreement.validUntil ? formatDate(agreement.validUntil) : t('agreements.openEnded') }),
        ],
        [t('agreements.facts.advanceRate'), `${agreement.advanceRate.toLocaleString('hr-HR')} %`],
        [t('agreements.facts.fee'), feeText(t, agreement)],
        [t('agreements.facts.minimumFee'), formatEur(agreement.minimumFee)],
        [t('agreements.facts.adminFee'), formatEur(agreement.adminFee)],
        [t('agreements.facts.documentationFee'), formatEur(agreement.documentationFee)],
        [t('agreements.facts.recourse'), agreement.recourse ? t('agreements.recourseWithDays', { days: agreement.recourseDays }) : t('agreements.no')],
        [t('agreements.facts.maxTenor'), t('agreements.days', { count: agreement.maxTenorDays })],
        [t('agreements.facts.disclosed'), agreement.disclosed ? t('agreements.yes') : t('agreements.no')],
        [t('agreements.facts.requiresDebtorConfirmation'), agreement.requiresDebtorConfirmation ? t('agreements.yes') : t('agreements.no')],
        [
          t('agreements.facts.concentration'),
          t('agreements.concentrationText', { limit: agreement.concentrationLimit.toLocaleString('hr-HR'), threshold: formatEur(agreement.concentrationThreshold) }),
        ],
        [t('agreements.facts.signedOn'), formatDate(agreement.signedOn)],
        [t('agreements.facts.signedBy'), agreement.signedBy],
      ]}
    />
  );
}

function VersionActions({ agreement, today }: { agreement: Agreement; today: string }) {
  const { t } = useTranslation();
  if (agreement.signatureStatus === 'signed') return null;
  return (
    <Flex gap="2" wrap="wrap" align="center">
      <IntentForm intent="agreement-send" values={{ agreementId: agreement.id }}>
        <Button type="submit" size="1" variant="soft" data-testid={`agreement-send-${agreement.version}`}>
          {t('agreements.send')}
        </Button>
      </IntentForm>
      <IntentForm intent="agreement-signed" values={{ agreementId: agreement.id }}>
        <Flex gap="1" align="center">
          <TextField.Root
            type="date"
            name="signedOn"
            size="1"
            required
            max={today}
            defaultValue={today}
            aria-label={t('agreements.markSignedLabel', { version: agreement.version })}
            data-testid={`agreement-signed-on-${agreement.version}`}
          />
          <Button type="submit" size="1" data-testid={`agreement-mark-signed-${agreement.version}`}>
            {t('agreements.markSigned')}
          </Button>
        </Flex>
      </IntentForm>
    </Flex>
  );
}

function Versions({ agreements, canManage, today }: { agreements: Agreement[]; canManage: boolean; today: string }) {
  const { t } = useTranslation();
  return (
    <Table.Root size="1" variant="surface" aria-label={t('agreements.versionsTable')} data-testid="agreement-versions">
      <TableHead
        columns={[
          t('agreements.columns.version'),
          t('agreements.columns.effectiveFrom'),
          t('agreements.columns.terms'),
          t('agreements.columns.status'),
          t('agreements.columns.document'),
          ...(canManage ? [t('agreements.columns.actions')] : []),
        ]}
      />
      <Table.Body>
        {agreements.map((agreement) => (
          <Table.Row key={agreement.id} data-testid={`agreement-version-${agreement.version}`}>
            <Table.Cell>
              {agreement.number} v{agreement.version}
            </Table.Cell>
            <Table.Cell>{formatDate(agreement.effectiveFrom)}</Table.Cell>
            <Table.Cell>
              <Text size="1">
                {agreement.advanceRate.toLocaleString('hr-HR')} % · {feeText(t, agreement)} · min. {formatEur(agreement.minimumFee)} ·{' '}
                {agreement.recourse ? t('agreements.recourseWithDays', { days: agreement.recourseDays }) : t('agreements.no')} ·{' '}
                {t('agreements.days', { count: agreement.maxTenorDays })}
              </Text>
            </Table.Cell>
            <Table.Cell>
              <Badge
                color={agreement.signatureStatus === 'signed' ? 'green' : agreement.signatureStatus === 'sent' ? 'blue' : 'gray'}
                data-testid={`agreement-status-${agreement.version}`}
              >
                {t(`agreements.status.${agreement.signatureStatus}`, { day: formatDate(agreement.signedOn) })}
              </Badge>
            </Table.Cell>
            <Table.Cell>
              {agreement.documentUrl ? (
                <RadixLink
                  href={agreement.documentUrl}
                  underline="always"
                  aria-label={t('agreements.pdfLabel', { version: agreement.version })}
                  data-testid={`agreement-pdf-${agreement.version}`}
                >
                  {t('agreements.pdf')}
                </RadixLink>
              ) : null}
            </Table.Cell>
            {canManage ? (
              <Table.Cell>
                <VersionActions agreement={agreement} today={today} />
              </Table.Cell>
            ) : null}
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function AgreementDialog({ open, onOpenChange, latest, today }: { open: boolean; onOpenChange: (open: boolean) => void; latest: Agreement | null; today: string }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<AgreementActionData>({ key: 'agreement-form' });
  const [form, fields] = useAgreementForm('agreement-dialog', fetcher.data?.result, defaultsOf(latest, today));
  const intent = latest ? 'agreement-revise' : 'agreement-create';
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      fetcher={fetcher}
      form={form}
      intent={intent}
      title={t(latest ? 'agreements.reviseTitle' : 'agreements.createTitle')}
      description={t(latest ? 'agreements.reviseDescription' : 'agreements.createDescription')}
      maxWidth="760px"
      failureToast={{ title: 'agreements.toast.failed', description: 'agreements.toast.failedDescription', variant: 'destructive' }}
      labels={{ cancel: t('agreements.cancel'), save: t('agreements.save'), saving: t('agreements.saving') }}
    >
      {latest ? <input type="hidden" name="agreementId" value={latest.id} /> : null}
      <AgreementFields form={form} fields={fields} />
    </CreateDialog>
  );
}

export function AgreementSection({
  agreements,
  inForce,
  canManage,
  today,
  showPanel,
  lastResult,
  panelHref,
  closeHref,
}: {
  agreements: Agreement[];
  inForce: Agreement | null;
  canManage: boolean;
  today: string;
  /** The `?agreement=edit` panel is open, or a refused post came back to it. */
  showPanel: boolean;
  lastResult?: AgreementFormResult;
  panelHref: string;
  closeHref: string;
}) {
  const { t } = useTranslation();
  const dialog = useCreateDialog();
  const latest = agreements[0] ?? null;
  const [form, fields] = useAgreementForm('agreement-panel', lastResult, defaultsOf(latest, today));
  return (
    <Section
      title={t('agreements.title')}
      id="agreement"
      aside={canManage ? <CreateButton to={panelHref} onOpen={dialog.show} label={t(latest ? 'agreements.revise' : 'agreements.create')} variant="soft" /> : null}
    >
      <Flex direction="column" gap="4" data-testid="agreement-section">
        {inForce ? (
          <Flex direction="column" gap="2" data-testid="agreement-in-force">
            <Text size="2" weight="medium">
              {t('agreements.inForce', { number: inForce.number, version: inForce.version })}
            </Text>
            <InForce agreement={inForce} />
          </Flex>
        ) : (
          <Text as="p" size="2" color="amber" data-testid="agreement-none-in-force">
            {t('agreements.noneInForce')}
          </Text>
        )}
        {showPanel && canManage ? (
          <CreatePanel
            form={form}
            intent={latest ? 'agreement-revise' : 'agreement-create'}
            testId="agreement-panel"
            title={t(latest ? 'agreements.reviseTitle' : 'agreements.createTitle')}
            description={t(latest ? 'agreements.reviseDescription' : 'agreements.createDescription')}
            cancelTo={closeHref}
            labels={{ cancel: t('agreements.cancel'), save: t('agreements.save'), saving: t('agreements.saving') }}
            hidden={latest ? <input type="hidden" name="agreementId" value={latest.id} /> : null}
          >
            <AgreementFields form={form} fields={fields} />
          </CreatePanel>
        ) : null}
        {agreements.length > 0 ? (
          <Versions agreements={agreements} canManage={canManage} today={today} />
        ) : (
          <Text size="2" color="gray">
            {t('agreements.noAgreement')}
          </Text>
        )}
        {canManage ? <AgreementDialog open={dialog.open} onOpenChange={dialog.onOpenChange} latest={latest} today={today} /> : null}
      </Flex>
    </Section>
  );
}
