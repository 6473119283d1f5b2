import { Card, Flex, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

type Size = '1' | '2' | '3' | '4' | '5' | '6' | '7';

/**
 * A card of one figure: a grey label, the figure in bold, an optional grey
 * note (the analytics KPIs, the payments' and risk summaries, the e-mail
 * figures). `testId` lands on the card, `valueTestId`/`dataValue` on the
 * figure, `noteTestId` on the note; the sizes are the page's.
 */
export function FigureCard({
  label,
  value,
  note,
  testId,
  valueTestId,
  dataValue,
  noteTestId,
  colour,
  cardSize = '2',
  labelSize = '2',
  valueSize = '6',
  noteSize = '1',
}: {
  label: ReactNode;
  value: ReactNode;
  note?: ReactNode;
  testId?: string;
  valueTestId?: string;
  dataValue?: string | number;
  noteTestId?: string;
  colour?: 'amber' | 'green' | 'red' | 'gray';
  cardSize?: '2' | '3';
  labelSize?: Size;
  valueSize?: Size;
  noteSize?: Size;
}) {
  return (
    <Card size={cardSize} data-testid={testId}>
      <Flex direction="column" gap="1">
        <Text size={labelSize} color="gray">
          {label}
        </Text>
        <Text size={valueSize} weight="bold" color={colour} data-testid={valueTestId} data-value={dataValue}>
          {value}
        </Text>
        {note ? (
          <Text size={noteSize} color="gray" data-testid={noteTestId}>
            {note}
          </Text>
        ) : null}
      </Flex>
    </Card>
  );
}
