import { Card, Heading } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/** The space under the heading grows with it. */
const MARGIN = { '3': '2', '4': '3' } as const;

/** A card with its heading above its content (the analytics, dashboard and monitoring cards). */
export function SectionCard({
  title,
  testId,
  level = 'h2',
  size = '3',
  children,
}: {
  title: ReactNode;
  testId?: string;
  level?: 'h2' | 'h3';
  size?: '3' | '4';
  children: ReactNode;
}) {
  return (
    <Card size="2" data-testid={testId}>
      <Heading as={level} size={size} mb={MARGIN[size]}>
        {title}
      </Heading>
      {children}
    </Card>
  );
}
