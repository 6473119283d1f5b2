import { Flex, Text } from '@radix-ui/themes';
import type { TFunction } from 'i18next';
import { scoreColour, type RiskCategory } from '~/risk/scoring.ts';
import { ValueBadge } from '~/components/kit/value-badge.tsx';

/** Small display pieces of /risk: score, category, factor names and values. */

const CATEGORY_COLOUR: Record<RiskCategory, 'green' | 'amber' | 'red'> = { low: 'green', medium: 'amber', high: 'red' };

/** docs/screens.md: 80 or more green, 60–79 amber, below 60 red; shown as x/100. */
export function ScoreText({ score, size = '3' }: { score: number; size?: '2' | '3' | '5' }) {
  return (
    <Text size={size} weight="bold" color={scoreColour(score)} data-testid="assessment-score">
      {score}/100
    </Text>
  );
}

/** The score (large) and its category badge, at the right of an assessment's title row. */
export function ScoreAndCategory({ score, category }: { score: number; category: RiskCategory }) {
  return (
    <Flex align="center" gap="3">
      <ScoreText score={score} size="5" />
      <CategoryBadge category={category} />
    </Flex>
  );
}

export function CategoryBadge({ category }: { category: RiskCategory }) {
  return <ValueBadge value={category} colours={CATEGORY_COLOUR} labels="risk.categories" testId="assessment-category" />;
}

export function factorLabel(t: TFunction, name: string): string {
  return t(`risk.factors.${name}`, { defaultValue: name });
}

const ONE_DECIMAL = new Intl.NumberFormat('hr-HR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO_DECIMALS = new Intl.NumberFormat('hr-HR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A percentage to one decimal in hr-HR ('45,3'). */
export function formatPercent(value: number): string {
  return ONE_DECIMAL.format(value);
}
export function formatDecimal(value: number): string {
  return TWO_DECIMALS.format(value);
}

/** A stored factor's measured value, in the unit its factor measures. */
export function formatFactorValue(t: TFunction, name: string, value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return t('risk.values.none');
  if (name === 'daysPastDue') return t('risk.values.days', { value: ONE_DECIMAL.format(value) });
  if (name === 'companyAge') return t('risk.values.years', { value });
  // Every other factor measures a share.
  return `${ONE_DECIMAL.format(value * 100)} %`;
}

/** Signed adjustment: '+5', '−8', '0'. */
export function signed(value: number): string {
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${Math.abs(value)}`;
  return '0';
}
