import { ArrowLeftIcon } from '@radix-ui/react-icons';
import { Box, Card, Flex, Heading, Progress, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '~/components/language-switcher.tsx';
import { WIZARD_STEPS } from '~/onboarding/schemas.ts';

/**
 * The public page around the wizard (docs/screens.md): back link to the main menu,
 * language switcher, progress bar at 25/50/75/100 % and 'Step {step} of 4'.
 */
export function WizardFrame({ step, children }: { step: number; children: React.ReactNode }) {
  const { t } = useTranslation();
  const percent = (step / WIZARD_STEPS) * 100;
  return (
    <Box asChild style={{ maxWidth: 760, margin: '0 auto', padding: '24px 16px' }}>
      <main>
        <Flex justify="between" align="center" gap="3" wrap="wrap" mb="4">
          <Link to="/" data-testid="back-to-menu" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            <ArrowLeftIcon /> {t('onboarding.backToMenu')}
          </Link>
          <LanguageSwitcher />
        </Flex>
        <Card size="3">
          <Heading as="h1" size="6">
            {t('onboarding.title')}
          </Heading>
          <Text as="p" color="gray" mb="4">
            {t('onboarding.subtitle')}
          </Text>
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
        </Card>
      </main>
    </Box>
  );
}
