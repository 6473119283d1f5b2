import { getFormProps, getInputProps } from '@conform-to/react';
import { Flex, Grid, Heading, Table, Text } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import { Field, FormErrors } from '~/components/forms.tsx';
import { Options, SelectField, SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';
import type { CreditNoteDto } from '~/dilution/credit-notes.server.ts';
import type { InvoiceDisputeDto } from '~/debtors/disputes.server.ts';
import type { DilutionActionData } from '~/dilution/page.server.ts';
import { creditNoteSchema, disputeResolveSchema, INVOICE_DISPUTE_OUTCOMES } from '~/dilution/schemas.ts';
import { formatDate, formatDateTime, formatEur } from '~/utils/format.ts';

/**
 * The invoice page's dilution (docs/screens.md, docs/collections.md#dilution-and-disputes-resolved):
 * its credit notes and, for a manager on a purchased invoice, the form to
 * enter one; its dispute, open or last resolved, and the form to resolve it.
 * Both forms work without JavaScript.
 */

const busyWith = (navigation: ReturnType<typeof useNavigation>, intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;

/** One of the two forms: its intent, heading, hint and form-wide errors around its fields (`<intent>-form` test id). */
function DilutionForm({
  intent,
  formProps,
  errors,
  title,
  hint,
  children,
}: {
  intent: DilutionActionData['intent'];
  formProps: ReturnType<typeof getFormProps>;
  errors?: string[];
  title: string;
  hint: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" {...formProps} data-testid={`${intent}-form`} aria-label={title}>
      <input type="hidden" name="intent" value={intent} />
      <Heading as="h3" size="3" mb="2">
        {title}
      </Heading>
      <Flex direction="column" gap="3">
        <Text size="1" color="gray">
          {hint}
        </Text>
        <FormErrors errors={errors} />
        {children}
      </Flex>
    </Form>
  );
}

export function CreditNotesSection({
  creditNotes,
  creditedAmount,
  canEnter,
  today,
  actionData,
}: {
  creditNotes: CreditNoteDto[];
  creditedAmount: number;
  canEnter: boolean;
  today: string;
  actionData?: DilutionActionData | null;
}) {
  const { t } = useTranslation();
  return (
    <Section
      title={t('dilution.creditNotes.title')}
      id="credit-notes"
      aside={<Text data-testid="credited-amount">{t('dilution.creditNotes.credited', { amount: formatEur(creditedAmount) })}</Text>}
    >
      <Flex direction="column" gap="4">
        {creditNotes.length === 0 ? (
          <Text as="p" color="gray" data-testid="credit-notes-empty">
            {t('dilution.creditNotes.empty')}
          </Text>
        ) : (
          <Table.Root size="1" aria-label={t('dilution.creditNotes.tableLabel')} data-testid="credit-notes-table">
            <TableHead
              columns={[
                t('dilution.creditNotes.number'),
                t('dilution.creditNotes.issueDate'),
                t('dilution.creditNotes.source'),
                t('dilution.creditNotes.reason'),
                { label: t('dilution.creditNotes.amount'), justify: 'end' },
                { label: t('dilution.creditNotes.chargeback'), justify: 'end' },
                t('dilution.creditNotes.createdBy'),
              ]}
            />
            <Table.Body>
              {creditNotes.map((note) => (
                <Table.Row key={note.id} data-testid="credit-note-row">
                  <Table.Cell>{note.number}</Table.Cell>
                  <Table.Cell>{formatDate(note.issueDate)}</Table.Cell>
                  <Table.Cell>{t(`dilution.creditNotes.sources.${note.source}`)}</Table.Cell>
                  <Table.Cell>{note.reason}</Table.Cell>
                  <Table.Cell justify="end">{formatEur(note.amount)}</Table.Cell>
                  <Table.Cell justify="end" data-testid="credit-note-chargeback">
                    {formatEur(note.chargebackAmount)}
                  </Table.Cell>
                  <Table.Cell>{note.createdBy ?? '—'}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
        {canEnter ? <CreditNoteForm today={today} actionData={actionData} /> : null}
      </Flex>
    </Section>
  );
}

function CreditNoteForm({ today, actionData }: { today: string; actionData?: DilutionActionData | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const lastResult = actionData?.intent === 'credit-note' ? actionData.result : null;
  const [form, fields] = useZodForm(creditNoteSchema, { id: 'credit-note', lastResult, defaultValue: { issueDate: today } });
  return (
    <DilutionForm intent="credit-note" formProps={getFormProps(form)} errors={form.errors} title={t('dilution.creditNotes.addTitle')} hint={t('dilution.creditNotes.hint')}>
      <Grid columns={{ initial: '1', sm: '3' }} gap="3">
        <Field label={t('dilution.creditNotes.numberLabel')} inputProps={getInputProps(fields.number, { type: 'text' })} errors={fields.number.errors} />
        <Field label={t('dilution.creditNotes.issueDateLabel')} inputProps={getInputProps(fields.issueDate, { type: 'date' })} errors={fields.issueDate.errors} />
        <Field
          label={t('dilution.creditNotes.amountLabel')}
          inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal' }}
          errors={fields.amount.errors}
        />
      </Grid>
      <TextAreaField label={t('dilution.creditNotes.reasonLabel')} meta={fields.reason} />
      <SubmitRow busy={busyWith(navigation, 'credit-note')} submitLabel={t('dilution.creditNotes.submit')} testId="credit-note-submit" />
    </DilutionForm>
  );
}

export function DisputeSection({
  disputes,
  canResolve,
  actionData,
}: {
  disputes: { open: InvoiceDisputeDto | null; lastResolved: InvoiceDisputeDto | null };
  canResolve: boolean;
  actionData?: DilutionActionData | null;
}) {
  const { t } = useTranslation();
  const { open, lastResolved } = disputes;
  if (!open && !lastResolved) return null;
  return (
    <Section title={t('dilution.dispute.title')} id="dispute">
      <Flex direction="column" gap="4" data-testid="dispute-section">
        {open ? (
          <Flex direction="column" gap="2" data-testid="open-dispute">
            <Heading as="h3" size="3">
              {t('dilution.dispute.open')}
            </Heading>
            <Facts
              rows={[
                [t('dilution.dispute.reason'), open.reason],
                [t('dilution.dispute.openedAt'), formatDateTime(open.openedAt)],
                [t('dilution.dispute.sourceLabel'), t(`dilution.dispute.sources.${open.source}`)],
                [t('dilution.dispute.openedBy'), open.openedBy ?? t('dilution.dispute.openedByDebtor', { ip: open.openedIp ?? '—' })],
              ]}
            />
            {canResolve ? <ResolveForm actionData={actionData} /> : null}
          </Flex>
        ) : null}
        {lastResolved ? (
          <Flex direction="column" gap="2" data-testid="resolved-dispute">
            <Heading as="h3" size="3">
              {t('dilution.dispute.lastResolved')}
            </Heading>
            <Facts
              rows={[
                [t('dilution.dispute.reason'), lastResolved.reason],
                [t('dilution.dispute.outcomeLabel'), lastResolved.outcome ? t(`dilution.dispute.outcomes.${lastResolved.outcome}`) : null],
                [t('dilution.dispute.agreedAmountLabel'), lastResolved.agreedAmount === null ? null : formatEur(lastResolved.agreedAmount)],
                [t('dilution.dispute.noteLabel'), lastResolved.resolutionNote],
                [t('dilution.dispute.resolvedAt'), lastResolved.resolvedAt ? formatDateTime(lastResolved.resolvedAt) : null],
                [t('dilution.dispute.resolvedBy'), lastResolved.resolvedBy],
              ]}
            />
          </Flex>
        ) : null}
      </Flex>
    </Section>
  );
}

function ResolveForm({ actionData }: { actionData?: DilutionActionData | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const lastResult = actionData?.intent === 'dispute-resolve' ? actionData.result : null;
  const [form, fields] = useZodForm(disputeResolveSchema, { id: 'dispute-resolve', lastResult });
  return (
    <DilutionForm intent="dispute-resolve" formProps={getFormProps(form)} errors={form.errors} title={t('dilution.dispute.resolveTitle')} hint={t('dilution.dispute.resolveHint')}>
      <Grid columns={{ initial: '1', sm: '2' }} gap="3">
        <SelectField label={t('dilution.dispute.outcome')} meta={fields.outcome}>
          <option value="">{t('dilution.dispute.chooseOutcome')}</option>
          <Options items={INVOICE_DISPUTE_OUTCOMES} label={(outcome) => t(`dilution.dispute.outcomes.${outcome}`)} />
        </SelectField>
        <Field
          label={t('dilution.dispute.agreedAmount')}
          inputProps={{ ...getInputProps(fields.agreedAmount, { type: 'text' }), inputMode: 'decimal' }}
          errors={fields.agreedAmount.errors}
        />
      </Grid>
      <TextAreaField label={t('dilution.dispute.note')} meta={fields.note} />
      <SubmitRow busy={busyWith(navigation, 'dispute-resolve')} submitLabel={t('dilution.dispute.submit')} testId="dispute-resolve-submit" />
    </DilutionForm>
  );
}
