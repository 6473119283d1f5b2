import type { ReactNode } from 'react';
import { LightCard, Stack } from './light.tsx';

/**
 * A list's card of one record (a client, a campaign, a sent e-mail): its title
 * and badge on the first row, then the lines the page adds. Light kit: a list
 * renders many of them.
 */
export function RecordCard({
  size,
  gap,
  testId,
  title,
  badge,
  children,
}: {
  size: '1' | '2';
  gap: '1' | '2' | '3';
  testId: string;
  title: ReactNode;
  badge: ReactNode;
  children: ReactNode;
}) {
  return (
    <LightCard size={size} data-testid={testId}>
      <Stack direction="column" gap={gap}>
        <Stack justify="between" align="start" gap="2">
          {title}
          {badge}
        </Stack>
        {children}
      </Stack>
    </LightCard>
  );
}
