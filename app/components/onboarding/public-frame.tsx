import { ArrowLeftIcon } from '@radix-ui/react-icons';
import { Box, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '~/components/language-switcher.tsx';

/**
 * The look of the public pages outside the signed-in shell (docs/screens.md):
 * the registration wizard, the KYC document link and the debtor's link. Their
 * own `main` and one `h1` (the card's title), the language switcher, and the
 * link back to the main menu where the visitor has one.
 */
export function PublicFrame({ title, subtitle, backToMenu = true, children }: { title: string; subtitle: string; backToMenu?: boolean; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box asChild style={{ maxWidth: 760, margin: '0 auto', padding: '24px 16px' }}>
      <main>
        <Flex justify={backToMenu ? 'between' : 'end'} align="center" gap="3" wrap="wrap" mb="4">
          {backToMenu ? (
            <Link to="/" data-testid="back-to-menu" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
              <ArrowLeftIcon /> {t('onboarding.backToMenu')}
            </Link>
          ) : null}
          <LanguageSwitcher />
        </Flex>
        <Card size="3">
          <Heading as="h1" size="6">
            {title}
          </Heading>
          <Text as="p" color="gray" mb="4">
            {subtitle}
          </Text>
          {children}
        </Card>
      </main>
    </Box>
  );
}
