import { CheckCircledIcon } from '@radix-ui/react-icons';
import { Box, Button, Card, Code, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_LENGTH } from '~/auth/schemas.ts';
import { decodeRefusal } from '~/utils/refusals.ts';
import { Field } from './forms.tsx';
import { useRefusalText } from './refusal-text.ts';
import { LanguageSwitcher } from './language-switcher.tsx';
import { useToast } from './toaster.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';

export type LoginActionData = { step: 'credentials'; error?: string } | { step: 'code'; error?: string } | { step: 'setup'; qrCode: string; manualKey: string; error?: string };

const FEATURES = ['compliance', 'einvoice', 'automation', 'kyc'] as const;

/**
 * Login screen (docs/screens.md): credentials, authenticator code, authenticator setup
 * (QR and manual key). Each step is a real form post; a language switcher on
 * every step; Back returns to the credentials and forgets code, QR and key.
 */
export function LoginPage({ actionData }: { actionData: LoginActionData | null }) {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  const toast = useToast();
  const step = actionData?.step ?? 'credentials';

  // docs/screens.md: refusals show as a destructive 'Error' toast (the inline alert serves no-JS browsers).
  useEffect(() => {
    const refusal = actionData?.error ? decodeRefusal(actionData.error) : null;
    if (refusal) toast({ title: 'login.errors.title', description: refusal.code, params: refusal.params, variant: 'destructive' });
  }, [actionData, toast]);

  return (
    <Flex asChild className="login-page" gap="6" align="center" justify="center" wrap="wrap">
      <main>
        <Box className="login-intro">
          {/* The brand, styled as a heading: the step's title below is the page's one h1. */}
          <Heading asChild size="8">
            <p>{t('app.name')}</p>
          </Heading>
          <Text as="p" color="gray" size="4" mb="4">
            {t('app.tagline')}
          </Text>
          <Text as="p" weight="bold" mb="2">
            {t('login.features.title')}
          </Text>
          <ul className="feature-list" data-testid="feature-bullets">
            {FEATURES.map((feature) => (
              <li key={feature}>
                <CheckCircledIcon /> <Text>{t(`login.features.${feature}`)}</Text>
              </li>
            ))}
          </ul>
        </Box>
        <Card size="4" className="login-card">
          <Flex justify="end" mb="3">
            <LanguageSwitcher />
          </Flex>
          {actionData?.error ? (
            <AlertCallout mb="3" className="no-js-only">
              {refusalText(actionData.error)}
            </AlertCallout>
          ) : null}
          {step === 'credentials' ? <CredentialsStep /> : null}
          {step === 'code' ? <CodeStep /> : null}
          {actionData?.step === 'setup' ? <SetupStep qrCode={actionData.qrCode} manualKey={actionData.manualKey} /> : null}
        </Card>
      </main>
    </Flex>
  );
}

function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

/** One step's form: its intent, the page's one h1 (the step's title) and the step's description. */
function StepForm({ intent, title, description, children }: { intent: string; title: string; description: string; children: React.ReactNode }) {
  return (
    <Form method="post" replace>
      <input type="hidden" name="intent" value={intent} />
      <Heading as="h1" size="5" mb="1">
        {title}
      </Heading>
      <Text as="p" color="gray" size="2" mb="4">
        {description}
      </Text>
      {children}
    </Form>
  );
}

function CredentialsStep() {
  const { t } = useTranslation();
  const submitting = useSubmitting('login');
  return (
    <StepForm intent="login" title={t('login.title')} description={t('login.subtitle')}>
      <Flex direction="column" gap="3">
        <Field label={t('login.email')} inputProps={{ name: 'email', type: 'email', autoComplete: 'username', required: true, autoFocus: true }} />
        <Field label={t('login.password')} inputProps={{ name: 'password', type: 'password', autoComplete: 'current-password', required: true }} />
        <Text size="2" align="right">
          <RadixLink asChild>
            <Link to="/forgot-password">{t('recovery.forgotLink')}</Link>
          </RadixLink>
        </Text>
        <Button type="submit" size="3" disabled={submitting}>
          {submitting ? t('login.submitting') : t('login.submit')}
        </Button>
      </Flex>
    </StepForm>
  );
}

/**
 * docs/domain-model.md#validation: at most 6 characters, digits only, submit disabled until exactly 6.
 * The button is disabled only once JavaScript runs, so a no-JS browser can still submit.
 * `submitting` while this step's form (`intent`) is being sent.
 */
function useCodeInput({ name, intent }: { name: string; intent: string }) {
  const { t } = useTranslation();
  const submitting = useSubmitting(intent);
  const [code, setCode] = useState('');
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return {
    submitting,
    blocked: submitting || (hydrated && code.length !== CODE_LENGTH),
    input: (
      <Field
        label={t('login.code')}
        inputProps={{
          name,
          value: code,
          onChange: (event) => setCode(event.currentTarget.value.replace(/\D/g, '').slice(0, CODE_LENGTH)),
          inputMode: 'numeric',
          autoComplete: 'one-time-code',
          pattern: '[0-9]{6}',
          maxLength: CODE_LENGTH,
          required: true,
          autoFocus: true,
          size: '3',
          className: 'code-input',
        }}
      />
    ),
  };
}

/** A step that asks for an authenticator code: its form and, under it, the way back to the password. */
function CodeStepFrame({ intent, title, description, children }: { intent: string; title: string; description: string; children: React.ReactNode }) {
  return (
    <Flex direction="column" gap="3">
      <StepForm intent={intent} title={title} description={description}>
        {children}
      </StepForm>
      <BackButton />
    </Flex>
  );
}

function BackButton() {
  const { t } = useTranslation();
  return (
    <Form method="post" replace>
      <input type="hidden" name="intent" value="back" />
      <Button type="submit" variant="ghost" color="gray">
        {t('login.back')}
      </Button>
    </Form>
  );
}

function CodeStep() {
  const { t } = useTranslation();
  const { submitting, blocked, input } = useCodeInput({ name: 'otpCode', intent: 'verify-otp' });
  return (
    <CodeStepFrame intent="verify-otp" title={t('login.totpTitle')} description={t('login.totpDescription')}>
      <Flex direction="column" gap="3">
        {input}
        <Button type="submit" size="3" disabled={blocked}>
          {submitting ? t('login.verifying') : t('login.verify')}
        </Button>
      </Flex>
    </CodeStepFrame>
  );
}

function SetupStep({ qrCode, manualKey }: { qrCode: string; manualKey: string }) {
  const { t } = useTranslation();
  const { submitting, blocked, input } = useCodeInput({ name: 'totpCode', intent: 'verify-setup' });
  return (
    <CodeStepFrame intent="verify-setup" title={t('login.setupTitle')} description={t('login.setupDescription')}>
      <input type="hidden" name="qrCode" value={qrCode} />
      <input type="hidden" name="manualKey" value={manualKey} />
      <Flex direction="column" gap="3" align="center">
        <img src={qrCode} alt={t('login.qrAlt')} width={200} height={200} data-testid="totp-qr" />
        <Box style={{ width: '100%' }}>
          <Text as="div" size="2" weight="medium" mb="1">
            {t('login.manualKey')}
          </Text>
          <Code size="3" data-testid="totp-manual-key" style={{ wordBreak: 'break-all' }}>
            {manualKey}
          </Code>
        </Box>
        <Box style={{ width: '100%' }}>{input}</Box>
        <Button type="submit" size="3" style={{ width: '100%' }} disabled={blocked}>
          {submitting ? t('login.verifying') : t('login.setupVerify')}
        </Button>
      </Flex>
    </CodeStepFrame>
  );
}
