import { CheckCircledIcon } from '@radix-ui/react-icons';
import { Button, Callout, Flex, Heading, Text } from '@radix-ui/themes';
import { Form } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

const NEXT_STEPS = ['kyc', 'documents', 'limit', 'access'] as const;

/** Step 4 (docs/screens.md): submitted, review within 1-3 business days, the next steps. */
export function SuccessStep() {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="3" data-testid="wizard-success">
      <Flex align="center" gap="2">
        <CheckCircledIcon width="24" height="24" color="green" />
        <Heading as="h2" size="5">
          {t('onboarding.success.title')}
        </Heading>
      </Flex>
      <Callout.Root color="green">
        <Callout.Text>{t('onboarding.success.registered')}</Callout.Text>
      </Callout.Root>
      <Text as="p">{t('onboarding.success.review')}</Text>
      <Heading as="h3" size="3">
        {t('onboarding.success.nextSteps')}
      </Heading>
      <ol className="onboarding-next-steps">
        {NEXT_STEPS.map((step) => (
          <li key={step}>
            <Text>{t(`onboarding.success.steps.${step}`)}</Text>
          </li>
        ))}
      </ol>
      <Form method="post" action="/onboarding?step=4">
        <input type="hidden" name="step" value="4" />
        <Button type="submit" name="intent" value="restart" variant="soft">
          {t('onboarding.actions.restart')}
        </Button>
      </Form>
    </Flex>
  );
}
