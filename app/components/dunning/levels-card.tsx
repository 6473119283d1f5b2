import type { SubmissionResult } from '@conform-to/react';
import { Flex, Grid, Text } from '@radix-ui/themes';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { CheckboxField, SubmitRow } from '~/components/kit/fields.tsx';
import { SectionCard } from '~/components/kit/section-card.tsx';
import { levelsFormValues, type DunningLevel } from '~/dunning/schemas.ts';

/**
 * /settings (admin): the four reminder levels to debtors, each its days from the due date and whether it is sent
 * (app/dunning/levels.server.ts). A plain form, so it works without JavaScript; after a refused post the entered
 * values and the server's errors come back.
 */
export function DunningLevelsCard({ levels, lastResult }: { levels: DunningLevel[]; lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'dunning-levels';
  const entered = (lastResult?.initialValue as Record<string, unknown> | undefined) ?? null;
  const values: Record<string, unknown> = entered ?? levelsFormValues(levels);
  const errors = lastResult?.error ?? {};
  return (
    <SectionCard title={t('dunning.settings.title')} level="h3" size="4" testId="dunning-levels">
      <Text as="p" size="2" color="gray" mb="3">
        {t('dunning.settings.help')}
      </Text>
      <Form method="post" id="dunning-levels" key={JSON.stringify(levels)}>
        <input type="hidden" name="intent" value="dunning-levels" />
        <Flex direction="column" gap="3">
          <FormErrors errors={errors[''] ?? null} />
          {levels.map(({ level }) => (
            <Grid key={level} columns={{ initial: '1', sm: '2' }} gap="3" align="end">
              <Field
                label={t('dunning.settings.days', { level })}
                inputProps={{ name: `level${level}Days`, id: `level${level}Days`, defaultValue: String(values[`level${level}Days`] ?? ''), inputMode: 'numeric', required: true }}
                errors={errors[`level${level}Days`]}
              />
              <CheckboxField
                label={t('dunning.settings.enabled', { level })}
                name={`level${level}Enabled`}
                defaultChecked={values[`level${level}Enabled`] === 'on'}
                inputProps={{ id: `level${level}Enabled` }}
              />
            </Grid>
          ))}
          <SubmitRow busy={busy} submitLabel={t('dunning.settings.save')} justify="start" testId="dunning-levels-save" />
        </Flex>
      </Form>
    </SectionCard>
  );
}
