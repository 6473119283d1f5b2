import { Flex, Progress, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { WIZARD_STEPS } from '~/onboarding/schemas.ts';
import { PublicFrame } from './public-frame.tsx';

/**
 * The public page around the wizard (docs/screens.md): back link to the main menu,
 * language switcher, progress bar at 25/50/75/100 % and 'Step {step} of 4'.
 */
export function WizardFrame({ step, children }: { step: number; children: React.ReactNode }) {
  const { t } = useTranslation();
  const percent = (step / WIZARD_STEPS) * 100;
  return (
    <PublicFrame title={t('onboarding.title')} subtitle={t('onboarding.subtitle')}>
      <Flex justify="between" align="center" mb="2">
        <Text size="2" weight="medium" data-testid="wizard-step-label">
          {t('onboarding.stepOf', { step })}
        </Text>
        <Text size="2" color="gray">
          {t(`onboarding.steps.${step}`)}
        </Text>
      </Flex>
      <Progress value={percent} aria-label={t('onboarding.progress')} data-testid="wizard-progress" data-value={percent} mb="5" />
      {children}
    </PublicFrame>
  );
}
