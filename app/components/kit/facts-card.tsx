import { Card, DataList, Heading } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/** A titled card of label–value facts (the profile's account, the settings' system); `testId` lands on the value. */
export function FactsCard({ title, facts }: { title: string; facts: Array<{ label: string; value: ReactNode; testId?: string }> }) {
  return (
    <Card size="3">
      <Heading as="h3" size="4" mb="3">
        {title}
      </Heading>
      <DataList.Root>
        {facts.map((fact) => (
          <DataList.Item key={fact.label}>
            <DataList.Label>{fact.label}</DataList.Label>
            <DataList.Value data-testid={fact.testId}>{fact.value}</DataList.Value>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Card>
  );
}
