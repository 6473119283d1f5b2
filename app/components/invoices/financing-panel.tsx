import { CheckCircledIcon, CrossCircledIcon, MinusCircledIcon } from '@radix-ui/react-icons';
import { Flex, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import { ELIGIBILITY_MONEY_PARAMS, type EligibilityCheckView } from '~/invoices/eligibility.ts';
import type { FinancedFees } from '~/invoices/page.server.ts';
import { formatDate, formatEur } from '~/utils/format.ts';
import { formatMoney } from './display.tsx';

const MONEY = new Set<string>(ELIGIBILITY_MONEY_PARAMS);
const DATES = new Set(['dueDate', 'today', 'date', 'effectiveFrom']);
const PERCENTS = new Set(['share', 'maxShare']);

/** A check's figures as the reader reads them: 12.000,00 €, 05. 03. 2026., 37,50. */
function displayParams(params: EligibilityCheckView['params']): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      if (MONEY.has(name)) return [name, formatEur(String(value))];
      if (DATES.has(name)) return [name, formatDate(String(value))];
      if (PERCENTS.has(name)) return [name, Number(value).toLocaleString('hr-HR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })];
      return [name, value];
    }),
  );
}

/** Passed, failed or not checked: an icon and a word, never colour alone. */
const OUTCOMES = {
  passed: { colour: 'green', weight: 'medium', Icon: CheckCircledIcon, text: 'invoices.eligibility.passed' },
  failed: { colour: 'red', weight: 'medium', Icon: CrossCircledIcon, text: 'invoices.eligibility.failed' },
  notChecked: { colour: 'gray', weight: undefined, Icon: MinusCircledIcon, text: 'invoices.eligibility.notChecked' },
} as const;

function Outcome({ passed }: { passed: boolean | null }) {
  const { t } = useTranslation();
  const { colour, weight, Icon, text } = OUTCOMES[passed === null ? 'notChecked' : passed ? 'passed' : 'failed'];
  return (
    <Flex align="center" gap="1" asChild>
      <Text color={colour} size="2" weight={weight}>
        <Icon aria-hidden />
        {t(text)}
      </Text>
    </Flex>
  );
}

/** 'Uvjeti financiranja': every check of an approved invoice with its figures and outcome (docs/money.md#eligibility). */
export function EligibilityPanel({ eligible, checks }: { eligible: boolean; checks: EligibilityCheckView[] }) {
  const { t } = useTranslation();
  return (
    <Section
      title={t('invoices.eligibility.title')}
      id="eligibility"
      aside={
        <Text size="2" weight="medium" color={eligible ? 'green' : 'red'} data-testid="eligibility-summary">
          {t(eligible ? 'invoices.eligibility.eligible' : 'invoices.eligibility.notEligible')}
        </Text>
      }
    >
      <ul className="eligibility-checks" data-testid="eligibility-checks" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {checks.map((check) => (
          <li key={check.name} data-testid={`eligibility-${check.name}`} data-passed={check.passed === null ? 'unknown' : String(check.passed)}>
            <Flex justify="between" align="center" gap="3" py="1" wrap="wrap" style={{ borderBottom: '1px solid var(--gray-a4)' }}>
              <Text size="2">{t(check.text, displayParams(check.params))}</Text>
              <Outcome passed={check.passed} />
            </Flex>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** A financed invoice's terms: the agreement version used, the fee charged at financing and the fee accrued to date. */
export function FinancedFeesSection({ fees, currency }: { fees: FinancedFees; currency: string }) {
  const { t } = useTranslation();
  const amount = (value: number) => formatMoney(value, currency);
  return (
    <Section title={t('invoices.financing.title')} id="financing-terms">
      <Facts
        rows={[
          [
            t('invoices.financing.agreement'),
            <span key="agreement" data-testid="financing-agreement">
              {t('invoices.financing.agreementVersion', { number: fees.agreementNumber, version: fees.agreementVersion })}
            </span>,
          ],
          [
            t('invoices.financing.feeCharged'),
            <span key="charged" data-testid="financing-fee-charged">
              {amount(fees.feeCharged)}
            </span>,
          ],
          ...(fees.documentationFee > 0 ? [[t('invoices.financing.documentationFee'), amount(fees.documentationFee)] as [string, string]] : []),
          ...(fees.feeVat === null ? [] : [[t('invoices.financing.feeVat'), amount(fees.feeVat)] as [string, string]]),
          [
            `${t('invoices.financing.feeAccrued')} (${formatDate(fees.accruedUntil)})`,
            <span key="accrued" data-testid="financing-fee-accrued">
              {amount(fees.feeAccrued)}
            </span>,
          ],
        ]}
      />
    </Section>
  );
}
