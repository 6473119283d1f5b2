import { Badge, Card, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { RecourseRefusal } from '~/recourse/page.server.ts';
import type { WriteOffRequestDto } from '~/recourse/write-off.server.ts';
import { SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { TableHead } from '~/components/kit/table-head.tsx';
import { useRefusalText } from '~/components/refusal-text.ts';
import { formatDateTime, formatEur } from '~/utils/format.ts';
import { IntentForm } from '~/components/kit/intent-form.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';

/** The recourse forms (docs/screens.md#pages): "Regres" on a financed recourse invoice, the write-off request on a non-recourse one, and the write-off decisions. */

export interface RecourseRights {
  chargeBack: boolean;
  requestWriteOff: boolean;
  decideWriteOff: boolean;
  userId: string;
}

const STATUS_COLOURS = { pending: 'amber', approved: 'green', rejected: 'red' } as const;

function Refused({ refusal }: { refusal: RecourseRefusal | null | undefined }) {
  const text = useRefusalText();
  if (!refusal?.message) return null;
  return <AlertCallout testId="recourse-refusal">{text(refusal.message)}</AlertCallout>;
}

/** One reason form: a text area and its submit button, posting `intent`. */
function ReasonForm({
  intent,
  label,
  submitLabel,
  idPrefix,
  requestId,
  refusal,
}: {
  intent: string;
  label: string;
  submitLabel: string;
  idPrefix: string;
  requestId?: string;
  refusal?: RecourseRefusal | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const mine = refusal && refusal.recourse === intent && (requestId ?? null) === refusal.requestId ? refusal : null;
  return (
    <Form method="post" data-testid={`${idPrefix}-form`}>
      <input type="hidden" name="intent" value={intent} />
      {requestId ? <input type="hidden" name="requestId" value={requestId} /> : null}
      <Flex direction="column" gap="2">
        <TextAreaField label={label} name="reason" id={`${idPrefix}-reason`} rows={2} errors={mine?.errors?.reason} textAreaProps={{ required: true, maxLength: 5000 }} />
        <SubmitRow submitLabel={submitLabel} busy={busy} justify="start" size="1" color="red" testId={`${idPrefix}-submit`} />
      </Flex>
    </Form>
  );
}

/**
 * The invoice page's recourse card: shown on a financed invoice to whoever may act on it. On an invoice no
 * longer financed (a form sent from an older page after it was charged back or written off) only the refusal.
 */
export function RecourseActions({
  financed,
  recourse,
  rights,
  pendingWriteOff,
  refusal,
}: {
  financed: boolean;
  recourse: boolean | null;
  rights: RecourseRights;
  pendingWriteOff: boolean;
  refusal: RecourseRefusal | null | undefined;
}) {
  const { t } = useTranslation();
  const mine = refusal && (refusal.recourse === 'charge-back' || refusal.recourse === 'request-write-off') ? refusal : null;
  const chargeBack = financed && recourse === true && rights.chargeBack;
  const writeOff = financed && recourse === false && rights.requestWriteOff && !pendingWriteOff;
  if (!chargeBack && !writeOff) return mine && !mine.errors ? <Refused refusal={mine} /> : null;
  return (
    <Card size="2" data-testid="recourse-actions">
      <Flex direction="column" gap="2">
        <Heading as="h2" size="4">
          {t(chargeBack ? 'recourse.chargeBack.title' : 'recourse.writeOff.title')}
        </Heading>
        <Text size="2" color="gray">
          {t(chargeBack ? 'recourse.chargeBack.description' : 'recourse.writeOff.description')}
        </Text>
        {mine && !mine.errors ? <Refused refusal={mine} /> : null}
        {chargeBack ? (
          <ReasonForm intent="charge-back" label={t('recourse.chargeBack.reason')} submitLabel={t('recourse.chargeBack.submit')} idPrefix="charge-back" refusal={mine} />
        ) : (
          <ReasonForm intent="request-write-off" label={t('recourse.writeOff.reason')} submitLabel={t('recourse.writeOff.submit')} idPrefix="write-off" refusal={mine} />
        )}
      </Flex>
    </Card>
  );
}

/** Write-off requests with their decisions (the invoice page, /limits); an admin other than the requester decides a pending one. */
export function WriteOffRequestsTable({
  requests,
  rights,
  refusal,
  showInvoice,
  label,
}: {
  requests: WriteOffRequestDto[];
  rights: Pick<RecourseRights, 'decideWriteOff' | 'userId'>;
  refusal: RecourseRefusal | null | undefined;
  showInvoice: boolean;
  label: string;
}) {
  const { t } = useTranslation();
  const decided = refusal && (refusal.recourse === 'approve-write-off' || refusal.recourse === 'reject-write-off') ? refusal : null;
  if (requests.length === 0) {
    // A decision sent from an older page on a request decided since: its refusal, though the list is empty now.
    return (
      <Flex direction="column" gap="2">
        {decided && !decided.errors ? <Refused refusal={decided} /> : null}
        <Text size="2" color="gray" data-testid="write-off-empty">
          {t('recourse.requests.empty')}
        </Text>
      </Flex>
    );
  }
  return (
    <Flex direction="column" gap="2">
      {decided && !decided.errors ? <Refused refusal={decided} /> : null}
      <Table.Root variant="surface" aria-label={label} className="fit-cells">
        <TableHead
          columns={[
            ...(showInvoice ? [t('recourse.requests.invoice'), t('recourse.requests.client')] : []),
            t('recourse.requests.reason'),
            t('recourse.requests.status'),
            t('recourse.requests.requestedBy'),
            { label: t('recourse.requests.loss'), justify: 'end' },
            t('recourse.requests.actions'),
          ]}
        />
        <Table.Body>
          {requests.map((request) => (
            <Table.Row key={request.id} data-testid="write-off-row">
              {showInvoice ? (
                <>
                  <Table.Cell>
                    <Link to={`/invoices/${request.invoiceId}`}>{request.invoiceNumber}</Link>
                  </Table.Cell>
                  <Table.Cell>{request.clientName}</Table.Cell>
                </>
              ) : null}
              <Table.Cell>{request.reason}</Table.Cell>
              <Table.Cell>
                <Badge color={STATUS_COLOURS[request.status]} data-testid="write-off-status">
                  {t(`recourse.status.${request.status}`)}
                </Badge>
              </Table.Cell>
              <Table.Cell>
                {request.requestedByName}
                <Text as="div" size="1" color="gray">
                  {formatDateTime(request.requestedAt)}
                </Text>
              </Table.Cell>
              <Table.Cell justify="end">{formatEur(request.lossAmount)}</Table.Cell>
              <Table.Cell>
                {request.status === 'pending' && rights.decideWriteOff && request.requestedBy !== rights.userId ? (
                  <Flex direction="column" gap="2">
                    <IntentForm intent="approve-write-off" values={{ requestId: request.id }}>
                      <SubmitRow submitLabel={t('recourse.requests.approve')} busy={false} justify="start" size="1" testId="write-off-approve" />
                    </IntentForm>
                    <ReasonForm
                      intent="reject-write-off"
                      requestId={request.id}
                      label={t('recourse.requests.rejectReason')}
                      submitLabel={t('recourse.requests.reject')}
                      idPrefix={`write-off-reject-${request.id}`}
                      refusal={decided}
                    />
                  </Flex>
                ) : request.status === 'pending' ? null : (
                  <Text size="1">
                    {request.decidedByName}
                    {request.rejectionReason ? ` · ${request.rejectionReason}` : ''}
                  </Text>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Flex>
  );
}
