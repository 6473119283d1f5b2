import { CheckCircledIcon } from '@radix-ui/react-icons';
import { Callout } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/**
 * A red alert line: a refusal shown above or inside a form, a section that
 * could not load. The page decides whether there is one; the text is the
 * page's, already translated.
 */
export function AlertCallout({ size, mb, className, testId, children }: { size?: '1'; mb?: '3'; className?: string; testId?: string; children: ReactNode }) {
  return (
    <Callout.Root color="red" role="alert" size={size} mb={mb} className={className} data-testid={testId}>
      <Callout.Text>{children}</Callout.Text>
    </Callout.Root>
  );
}

/** A green line with a tick: what the visitor sent has arrived (the debtor's answer, the KYC documents). */
export function DoneCallout({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Callout.Root color="green" data-testid={testId}>
      <Callout.Icon>
        <CheckCircledIcon />
      </Callout.Icon>
      <Callout.Text>{children}</Callout.Text>
    </Callout.Root>
  );
}
