import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

/** docs/screens.md: any unknown path shows '404 Page Not Found'. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <Flex asChild direction="column" align="center" justify="center" gap="4" className="centered-page">
      <main>
        <Heading as="h1" size="8">
          {t('notFound.title')}
        </Heading>
        <Text color="gray">{t('notFound.description')}</Text>
        <Button asChild>
          <Link to="/">{t('notFound.back')}</Link>
        </Button>
      </main>
    </Flex>
  );
}
