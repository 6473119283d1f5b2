import { Button, Card, Flex, Grid, Heading, Skeleton, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { RiskAssessmentDto } from '~/risk/assessments.server.ts';
import { formatDateTime } from '~/utils/format.ts';
import { factorLabel, ScoreAndCategory, signed } from './risk-display.tsx';

/** docs/screens.md: the list shows only the first 4 factors of each assessment. */
export const FACTORS_SHOWN = 4;
/** docs/screens.md: 5 placeholders while assessments load. */
export const PLACEHOLDER_CARDS = 5;

function entityHref(assessment: Pick<RiskAssessmentDto, 'entityType' | 'entityId'>) {
  return assessment.entityType === 'client' ? `/clients/${assessment.entityId}` : `/customers/${assessment.entityId}`;
}

export function AssessmentCard({ assessment, detailsHref, editHref }: { assessment: RiskAssessmentDto; detailsHref: string; editHref: string | null }) {
  const { t } = useTranslation();
  const factors = Object.entries(assessment.factors ?? {});
  const shown = factors.slice(0, FACTORS_SHOWN);
  return (
    <Card size="2" data-testid="assessment-card" data-assessment-id={assessment.id}>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="start" gap="3" wrap="wrap">
          <Flex direction="column" gap="1">
            <Heading as="h3" size="3">
              <Link to={entityHref(assessment)}>{assessment.entityName ?? t('risk.unknownEntity')}</Link>
            </Heading>
            <Text size="1" color="gray">
              {t(`risk.entityTypes.${assessment.entityType}`)} · {formatDateTime(assessment.createdAt)} ·{' '}
              {t('risk.card.assessedBy', { name: assessment.assessedBy === 'system' ? t('risk.system') : assessment.assessedBy })}
            </Text>
          </Flex>
          <ScoreAndCategory score={assessment.score} category={assessment.category} />
        </Flex>
        <Grid columns={{ initial: '2', md: '4' }} gap="2" data-testid="assessment-factors">
          {shown.map(([name, factor]) => (
            <Flex key={name} direction="column" data-testid="assessment-factor">
              <Text size="1" color="gray">
                {factorLabel(t, name)}
              </Text>
              <Text size="2" weight="medium">
                {factor.score}/100
              </Text>
            </Flex>
          ))}
        </Grid>
        {assessment.manualAdjustment !== 0 || assessment.notes ? (
          <Text size="2" color="gray">
            {assessment.manualAdjustment !== 0 ? t('risk.card.adjusted', { adjustment: signed(assessment.manualAdjustment) }) : null}
            {assessment.manualAdjustment !== 0 && assessment.notes ? ' · ' : null}
            {assessment.notes}
          </Text>
        ) : null}
        <Flex gap="2" justify="end">
          <Button asChild variant="soft" size="1">
            <Link to={detailsHref}>{t('risk.actions.details')}</Link>
          </Button>
          {editHref ? (
            <Button asChild variant="soft" size="1" color="gray">
              <Link to={editHref}>{t('risk.actions.edit')}</Link>
            </Button>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}

export function AssessmentPlaceholders() {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="3" aria-busy="true" aria-label={t('risk.loading')}>
      {Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
        <Card key={index} size="2" data-testid="placeholder-card">
          <Flex direction="column" gap="3">
            <Flex justify="between">
              <Skeleton height="20px" width="40%" />
              <Skeleton height="20px" width="80px" />
            </Flex>
            <Skeleton height="14px" width="60%" />
            <Grid columns="4" gap="2">
              {Array.from({ length: FACTORS_SHOWN }, (_, factor) => (
                <Skeleton key={factor} height="30px" />
              ))}
            </Grid>
          </Flex>
        </Card>
      ))}
    </Flex>
  );
}
