import { Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { Facts, Section } from '~/components/clients/party-detail.tsx';
import { SectionCard } from '~/components/kit/section-card.tsx';
import type { DilutionDto } from '~/dilution/rate.server.ts';
import { formatDate, formatEur } from '~/utils/format.ts';

/**
 * The dilution rate (docs/collections.md#dilution-and-disputes-resolved):
 * credit notes ÷ financed amount over the last 12 months, with its figures.
 */
function DilutionFacts({ dilution }: { dilution: DilutionDto }) {
  const { t } = useTranslation();
  const rate = dilution.rate === null ? t('dilution.rate.none') : `${dilution.rate.toLocaleString('hr-HR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`;
  return (
    <Facts
      rows={[
        [
          t('dilution.rate.rate'),
          <Text key="rate" data-testid="dilution-rate" data-value={dilution.rate ?? ''}>
            {rate}
          </Text>,
        ],
        [t('dilution.rate.creditNotes'), formatEur(dilution.creditNotes)],
        [t('dilution.rate.financed'), formatEur(dilution.financed)],
        [t('dilution.rate.window'), t('dilution.rate.windowValue', { from: formatDate(dilution.from), to: formatDate(dilution.to) })],
      ]}
    />
  );
}

/** The client and customer pages. */
export function DilutionSection({ dilution }: { dilution: DilutionDto }) {
  const { t } = useTranslation();
  return (
    <Section title={t('dilution.rate.title')} id="dilution">
      <DilutionFacts dilution={dilution} />
    </Section>
  );
}

/** /analytics: the whole book, whatever the period. */
export function DilutionCard({ dilution }: { dilution: DilutionDto }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('dilution.rate.title')} testId="analytics-dilution">
      <DilutionFacts dilution={dilution} />
    </SectionCard>
  );
}
