import { DownloadIcon } from '@radix-ui/react-icons';
import { Button, Callout, Card, DataList, Flex, Heading, Text } from '@radix-ui/themes';
import { Form, useNavigation, useParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ErrorList, FormErrors } from '~/components/forms.tsx';
import { CheckboxField, TextAreaField } from '~/components/kit/fields.tsx';
import { PublicFrame } from '~/components/onboarding/public-frame.tsx';
import type { DebtorLinkState, OfferedInvoice } from '~/debtors/links.server.ts';
import { answerField, REASON_MAX, reasonField, type DebtorFormErrors } from '~/debtors/schemas.ts';
import { formatDate, formatEur } from '~/utils/format.ts';
import { DoneCallout } from '~/components/kit/callouts.tsx';
import { Fact } from '~/components/kit/light.tsx';

/**
 * The debtor's page behind its link (app/routes/debtor.$token.tsx): the look
 * of /onboarding, the notice to download, each invoice waiting for an answer
 * with 'Potvrđujem' / 'Osporavam' (native radio buttons) and a reason, the
 * acknowledgement of the notice, one submit. A link that no longer works
 * gets its own explanation instead of the form.
 */
export function DebtorLinkPage({
  link,
  done,
  limited,
  errors,
  values,
}: {
  link: DebtorLinkState;
  done: boolean;
  limited: boolean;
  errors?: DebtorFormErrors;
  values?: Record<string, string>;
}) {
  const { t } = useTranslation();
  return (
    <PublicFrame title={t('debtors.page.title')} subtitle={t('debtors.page.subtitle')} backToMenu={false}>
      {limited ? (
        <Callout.Root color="amber" role="status" data-testid="debtor-link-limited">
          <Callout.Text>{t('onboarding.errors.tooManyRequests')}</Callout.Text>
        </Callout.Root>
      ) : link.state === 'open' ? (
        <OpenLink link={link} errors={errors} values={values} />
      ) : link.state === 'spent' && done ? (
        <DoneCallout testId="debtor-link-done">{t('debtors.page.done', { client: link.clientName })}</DoneCallout>
      ) : (
        <Callout.Root color="amber" role="status" data-testid={`debtor-link-${link.state}`}>
          <Callout.Text>{link.state === 'spent' ? t('debtors.page.spent', { date: formatDate(link.spentAt) }) : t(`debtors.page.${link.state}`)}</Callout.Text>
        </Callout.Root>
      )}
    </PublicFrame>
  );
}

function OpenLink({ link, errors, values }: { link: Extract<DebtorLinkState, { state: 'open' }>; errors?: DebtorFormErrors; values?: Record<string, string> }) {
  const { t } = useTranslation();
  const { token } = useParams();
  const busy = useNavigation().state === 'submitting';
  return (
    <Flex direction="column" gap="4">
      <Text as="p" data-testid="debtor-notice-text">
        {t('debtors.page.intro', { client: link.clientName, debtor: link.debtorName, factor: link.factorName, iban: link.factorIban })}
      </Text>
      <Flex>
        <Button asChild variant="soft">
          <a href={`/debtor/${token}/notice.pdf`} download data-testid="debtor-notice-download">
            <DownloadIcon /> {t('debtors.page.download')}
          </a>
        </Button>
      </Flex>
      <Form method="post" noValidate>
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            {t('debtors.page.invoicesTitle')}
          </Heading>
          <FormErrors errors={errors?.form} />
          {link.invoices.length === 0 ? (
            <Text as="p" color="gray" data-testid="debtor-no-invoices">
              {t('debtors.page.noInvoices')}
            </Text>
          ) : (
            <Text as="p" size="2">
              {link.waiting > link.invoices.length ? t('debtors.page.someInvoices', { shown: link.invoices.length, count: link.waiting }) : t('debtors.page.instructions')}
            </Text>
          )}
          {link.invoices.map((invoice) => (
            <InvoiceAnswer key={invoice.id} invoice={invoice} errors={errors} values={values} />
          ))}
          <CheckboxField
            name="acknowledged"
            label={t('debtors.page.acknowledge', { client: link.clientName, factor: link.factorName })}
            defaultChecked={values?.acknowledged === 'on'}
            errors={errors?.acknowledged}
            inputProps={{ 'data-testid': 'debtor-acknowledge' }}
          />
          <Text as="p" size="1" color="gray">
            {t('debtors.page.expires', { date: formatDate(link.expiresAt) })}
          </Text>
          <Flex justify="end">
            <Button type="submit" disabled={busy} data-testid="debtor-submit">
              {busy ? t('debtors.page.sending') : t('debtors.page.send')}
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Flex>
  );
}

function InvoiceAnswer({ invoice, errors, values }: { invoice: OfferedInvoice; errors?: DebtorFormErrors; values?: Record<string, string> }) {
  const { t } = useTranslation();
  const name = answerField(invoice.id);
  const choiceErrorId = errors?.[name]?.length ? `${name}-error` : undefined;
  return (
    <Card data-testid={`debtor-invoice-${invoice.number}`}>
      <fieldset style={{ border: 0, margin: 0, padding: 0 }} aria-describedby={choiceErrorId}>
        <legend>
          <Text weight="bold">{t('debtors.page.invoice', { number: invoice.number })}</Text>
        </legend>
        <DataList.Root size="1" my="2">
          <Fact label={t('debtors.page.issueDate')}>{formatDate(invoice.issueDate)}</Fact>
          <Fact label={t('debtors.page.dueDate')}>{formatDate(invoice.dueDate)}</Fact>
          <Fact label={t('debtors.page.amount')}>{invoice.currency === 'EUR' ? formatEur(invoice.amount) : `${invoice.amount.toFixed(2)} ${invoice.currency}`}</Fact>
          <Fact label={t('debtors.page.reference')}>{invoice.paymentReference ?? t('debtors.page.noReference')}</Fact>
        </DataList.Root>
        <Flex gap="4" wrap="wrap" my="2">
          {(['confirm', 'dispute'] as const).map((choice) => (
            <Text as="label" size="2" key={choice}>
              <Flex gap="2" align="center">
                <input type="radio" name={name} value={choice} defaultChecked={values?.[name] === choice} data-testid={`debtor-${choice}-${invoice.number}`} />
                {t(`debtors.page.${choice}`)}
              </Flex>
            </Text>
          ))}
        </Flex>
        <ErrorList id={choiceErrorId} errors={errors?.[name]} />
        <TextAreaField
          name={reasonField(invoice.id)}
          label={t('debtors.page.reason')}
          hint={t('debtors.page.reasonHint', { max: REASON_MAX })}
          errors={errors?.[reasonField(invoice.id)]}
          textAreaProps={{ maxLength: REASON_MAX, defaultValue: values?.[reasonField(invoice.id)] ?? '', 'data-testid': `debtor-reason-${invoice.number}` }}
        />
      </fieldset>
    </Card>
  );
}
