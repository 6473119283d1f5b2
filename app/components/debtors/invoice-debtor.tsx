import { Flex } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import { SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import type { InvoiceDebtorView } from '~/debtors/disputes.server.ts';
import { REASON_MAX } from '~/debtors/schemas.ts';
import { formatDateTime } from '~/utils/format.ts';

/**
 * The invoice page's section on the debtor (docs/screens.md): its answer
 * through its link (confirmed or disputed, when and from where) and, while no
 * dispute is open, for a manager the form to open one on the debtor's behalf
 * (posts to /api/invoices/{id}/dispute and comes back here). The dispute
 * itself, open or resolved, is the page's dispute section.
 */
export function InvoiceDebtorSection({ invoiceId, open, data }: { invoiceId: string; open: boolean; data: InvoiceDebtorView & { canDispute: boolean } }) {
  const { t } = useTranslation();
  const { answer } = data;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formAction === `/api/invoices/${invoiceId}/dispute`;
  return (
    <Section title={t('debtors.invoice.title')} id="debtor">
      <Flex direction="column" gap="3">
        <Facts
          rows={[
            [
              t('debtors.invoice.answer'),
              <span key="answer" data-testid="debtor-answer">
                {answer ? t(`debtors.invoice.answers.${answer.answer}`, { at: formatDateTime(answer.answeredAt), ip: answer.ip ?? '—' }) : t('debtors.invoice.noAnswer')}
              </span>,
            ],
          ]}
        />
        {!data.disputed && data.canDispute && open ? (
          <Form method="post" action={`/api/invoices/${invoiceId}/dispute`} data-testid="dispute-form">
            <input type="hidden" name="redirectTo" value={`/invoices/${invoiceId}#debtor`} />
            <Flex direction="column" gap="2">
              <TextAreaField name="reason" label={t('debtors.invoice.reason')} textAreaProps={{ required: true, maxLength: REASON_MAX, 'data-testid': 'dispute-reason' }} />
              <SubmitRow submitLabel={t('debtors.invoice.openDispute')} justify="start" busy={busy} />
            </Flex>
          </Form>
        ) : null}
      </Flex>
    </Section>
  );
}
