import { Card, Heading } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/** A page's cards title themselves under its h1 (h2), the dashboard's under its section headings (h3). */
const HEADING = { h2: { size: '3', mb: '2' }, h3: { size: '4', mb: '3' } } as const;

/** A card with its heading above its content (the analytics and dashboard cards). */
export function SectionCard({ title, testId, level = 'h2', children }: { title: ReactNode; testId?: string; level?: 'h2' | 'h3'; children: ReactNode }) {
  return (
    <Card size="2" data-testid={testId}>
      <Heading as={level} size={HEADING[level].size} mb={HEADING[level].mb}>
        {title}
      </Heading>
      {children}
    </Card>
  );
}
