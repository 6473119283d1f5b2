import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec §2 dashboard header: the title and the current date and time in the chosen language. */
export function Dashboard({ user }: { user: { firstName: string; lastName: string } }) {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  const dateTime = now
    ? new Intl.DateTimeFormat(i18n.language === 'hr' ? 'hr-HR' : 'en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'Europe/Zagreb',
      }).format(now)
    : '';
  return (
    <Flex direction="column" gap="4">
      <Card size="3">
        <Heading size="5">{t('dashboard.welcome', { name: `${user.firstName} ${user.lastName}`.trim() })}</Heading>
        <Text as="p" color="gray" data-testid="dashboard-clock" suppressHydrationWarning>
          {dateTime}
        </Text>
      </Card>
    </Flex>
  );
}
