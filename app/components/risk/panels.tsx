import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Badge, Button, Card, DataList, Flex, Table, Text } from '@radix-ui/themes';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PanelHeader } from '~/components/kit/panel-header.tsx';
import { useZodForm } from '~/components/kit/zod-form.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import type { EntityOption, RiskAssessmentDto } from '~/risk/assessments.server.ts';
import { adjustAssessmentFormSchema, newAssessmentFormSchema } from '~/risk/schemas.ts';
import { Field, FormErrors } from '~/components/forms.tsx';
import { Options, SelectField, SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { formatDateTime } from '~/utils/format.ts';
import { CategoryBadge, factorLabel, formatDecimal, formatFactorValue, ScoreAndCategory, ScoreText, signed } from './risk-display.tsx';
import { Fact } from '~/components/kit/light.tsx';

/**
 * The three panels of /risk, opened by the URL (?details=, ?edit=, ?new=1) so
 * they work without JavaScript: 'Detalji' (every factor and the sum),
 * 'Uredi' (manual adjustment) and 'Nova procjena' (assess an entity now).
 */

const assessorName = (t: (key: string) => string, name: string) => (name === 'system' ? t('risk.system') : name);

/** 'Detalji': every stored factor with score, weight, value and explanation, and how the total is computed. */
export function DetailsPanel({ assessment, closeHref, editHref }: { assessment: RiskAssessmentDto; closeHref: string; editHref: string | null }) {
  const { t } = useTranslation();
  const factors = Object.entries(assessment.factors ?? {});
  // Basis points, as computeScore sums them, so the shown sum is the one that was rounded.
  const sum = factors.reduce((total, [, factor]) => total + Math.round(factor.score) * Math.round(factor.weight * 10_000), 0) / 10_000;
  const weights = factors.reduce((total, [, factor]) => total + Math.round(factor.weight * 10_000), 0) / 10_000;
  return (
    <Card size="3" data-testid="assessment-details">
      <PanelHeader title={t('risk.details.title')} closeHref={closeHref} closeLabel={t('risk.actions.close')} />
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Flex direction="column">
            <Text weight="bold">{assessment.entityName ?? t('risk.unknownEntity')}</Text>
            <Text size="1" color="gray">
              {t(`risk.entityTypes.${assessment.entityType}`)}
            </Text>
          </Flex>
          <ScoreAndCategory score={assessment.score} category={assessment.category} />
        </Flex>
        <Table.Root variant="surface" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('risk.details.factor')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t('risk.details.score')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t('risk.details.weight')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t('risk.details.contribution')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t('risk.details.value')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('risk.details.explanation')}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {factors.map(([name, factor]) => (
              <Table.Row key={name} data-testid={`factor-${name}`}>
                <Table.RowHeaderCell>{factorLabel(t, name)}</Table.RowHeaderCell>
                <Table.Cell justify="end">{factor.score}</Table.Cell>
                <Table.Cell justify="end">{formatDecimal(factor.weight)}</Table.Cell>
                <Table.Cell justify="end">{formatDecimal(factor.weight * factor.score)}</Table.Cell>
                <Table.Cell justify="end">{formatFactorValue(t, name, factor.value)}</Table.Cell>
                <Table.Cell>{factor.explanation ?? ''}</Table.Cell>
              </Table.Row>
            ))}
            <Table.Row>
              <Table.RowHeaderCell>{t('risk.details.sum')}</Table.RowHeaderCell>
              <Table.Cell />
              <Table.Cell justify="end">{formatDecimal(weights)}</Table.Cell>
              <Table.Cell justify="end" data-testid="factor-sum">
                {formatDecimal(sum)}
              </Table.Cell>
              <Table.Cell />
              <Table.Cell />
            </Table.Row>
          </Table.Body>
        </Table.Root>
        <Flex direction="column" gap="1" data-testid="score-computation">
          <Text size="2">{t('risk.details.automatic', { sum: formatDecimal(sum), automatic: assessment.automaticScore })}</Text>
          <Text size="2">{t('risk.details.manual', { adjustment: signed(assessment.manualAdjustment) })}</Text>
          <Text size="2" weight="bold">
            {t('risk.details.total', {
              automatic: assessment.automaticScore,
              sign: assessment.manualAdjustment < 0 ? '−' : '+',
              magnitude: Math.abs(assessment.manualAdjustment),
              score: assessment.score,
            })}
          </Text>
        </Flex>
        <DataList.Root size="2">
          <Fact label={t('risk.details.assessedAt')}>{formatDateTime(assessment.createdAt)}</Fact>
          <Fact label={t('risk.details.assessedBy')}>{assessorName(t, assessment.assessedBy)}</Fact>
          {assessment.adjustedBy || assessment.adjustedAt ? (
            <Fact label={t('risk.details.adjustedBy')} data-testid="adjusted-by">
              {assessment.adjustedBy ?? ''} · {formatDateTime(assessment.adjustedAt)}
            </Fact>
          ) : null}
          <Fact label={t('risk.details.notes')}>{assessment.notes ?? t('risk.values.none')}</Fact>
          <Fact label={t('risk.details.sources')}>
            <Flex gap="2">
              {assessment.hanfaData ? <Badge color="blue">{t('risk.details.hanfa')}</Badge> : null}
              {assessment.finaData ? <Badge color="blue">{t('risk.details.fina')}</Badge> : null}
              {!assessment.hanfaData && !assessment.finaData ? <Text color="gray">{t('risk.details.noSources')}</Text> : null}
            </Flex>
          </Fact>
        </DataList.Root>
        {editHref ? (
          <Flex justify="end">
            <Button asChild variant="soft">
              <Link to={editHref}>{t('risk.actions.edit')}</Link>
            </Button>
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}

/** 'Uredi' (manager): manual adjustment −100…100 and notes; shows who adjusted last and when. */
export function AdjustPanel({ assessment, closeHref, lastResult }: { assessment: RiskAssessmentDto; closeHref: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'adjust';
  const errorText = useRefusalTexts();
  const [form, fields] = useZodForm(adjustAssessmentFormSchema, {
    id: `adjust-${assessment.id}`,
    lastResult,
    // Once adjusted, the notes are the adjustment's reason: offer them for editing; a system note is not one.
    defaultValue: {
      id: assessment.id,
      manualAdjustment: String(assessment.manualAdjustment),
      notes: assessment.adjustedAt ? (assessment.notes ?? '') : '',
    },
  });
  return (
    <Card size="3" data-testid="assessment-edit">
      <PanelHeader title={t('risk.edit.title')} closeHref={closeHref} closeLabel={t('risk.actions.close')} />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="adjust" />
        <input {...getInputProps(fields.id, { type: 'hidden' })} />
        <Flex direction="column" gap="3">
          <Flex justify="between" align="center" gap="3" wrap="wrap">
            <Text weight="bold">{assessment.entityName ?? t('risk.unknownEntity')}</Text>
            <Flex align="center" gap="3">
              <Text size="2" color="gray">
                {t('risk.edit.automatic', { automatic: assessment.automaticScore })}
              </Text>
              <ScoreText score={assessment.score} />
              <CategoryBadge category={assessment.category} />
            </Flex>
          </Flex>
          <Text size="2" color="gray" data-testid="adjusted-by">
            {assessment.adjustedBy && assessment.adjustedAt
              ? t('risk.edit.adjustedBy', { name: assessment.adjustedBy, date: formatDateTime(assessment.adjustedAt) })
              : t('risk.edit.notAdjusted')}
          </Text>
          <Field
            label={t('risk.edit.manualAdjustment')}
            inputProps={{ ...getInputProps(fields.manualAdjustment, { type: 'number' }), step: 1 }}
            errors={errorText(fields.manualAdjustment.errors)}
          />
          <TextAreaField label={t('risk.edit.notes')} meta={fields.notes} errors={errorText(fields.notes.errors)} />
          <FormErrors errors={form.errors} />
          <SubmitRow cancel={{ to: closeHref, label: t('risk.actions.cancel') }} submitLabel={t('risk.edit.save')} busyLabel={t('risk.edit.saving')} busy={saving} gap="2" />
        </Flex>
      </Form>
    </Card>
  );
}

/** 'Nova procjena': choose an existing client or customer and assess it now. */
export function NewAssessmentPanel({
  entities,
  closeHref,
  lastResult,
  defaultEntity,
}: {
  entities: { clients: EntityOption[]; customers: EntityOption[] };
  closeHref: string;
  lastResult?: SubmissionResult<string[]>;
  defaultEntity?: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'assess';
  const errorText = useRefusalTexts();
  const [form, fields] = useZodForm(newAssessmentFormSchema, { id: 'new-assessment', lastResult, defaultValue: { entity: defaultEntity ?? '' } });
  return (
    <Card size="3" data-testid="new-assessment">
      <PanelHeader title={t('risk.new.title')} closeHref={closeHref} closeLabel={t('risk.actions.close')} />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="assess" />
        <Flex direction="column" gap="3">
          <SelectField label={t('risk.new.entity')} meta={fields.entity} errors={errorText(fields.entity.errors)}>
            <option value="">{t('risk.new.choose')}</option>
            <optgroup label={t('risk.new.clients')}>
              <Options items={entities.clients} value={(entity) => `client:${entity.id}`} label={(entity) => `${entity.name} (${entity.oib})`} />
            </optgroup>
            <optgroup label={t('risk.new.customers')}>
              <Options items={entities.customers} value={(entity) => `customer:${entity.id}`} label={(entity) => `${entity.name} (${entity.oib})`} />
            </optgroup>
          </SelectField>
          <TextAreaField label={t('risk.new.notes')} meta={fields.notes} errors={errorText(fields.notes.errors)} rows={2} />
          <FormErrors errors={form.errors} />
          <SubmitRow
            cancel={{ to: closeHref, label: t('risk.actions.cancel') }}
            submitLabel={t('risk.new.submit')}
            busyLabel={t('risk.new.submitting')}
            busy={submitting}
            gap="2"
          />
        </Flex>
      </Form>
    </Card>
  );
}
