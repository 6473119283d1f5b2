import { Flex, Heading, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/**
 * The title row at the top of a page inside the shell: the page's h2 (the
 * shell's h1 names the page), an optional grey line under it, and the page's
 * actions at the right ('Add …', a link back), wrapping on a narrow screen.
 */
export function PageHeader({ title, subtitle, subtitleTestId, children }: { title: ReactNode; subtitle?: ReactNode; subtitleTestId?: string; children?: ReactNode }) {
  return (
    <Flex justify="between" align="center" gap="3" wrap="wrap">
      <TitleBlock title={title} subtitle={subtitle} subtitleTestId={subtitleTestId} />
      {children}
    </Flex>
  );
}

/** A heading with an optional grey line under it: a page's (h2) or, with `level="h3"`, a card's (the settings' users). */
export function TitleBlock({ title, subtitle, subtitleTestId, level = 'h2' }: { title: ReactNode; subtitle?: ReactNode; subtitleTestId?: string; level?: 'h2' | 'h3' }) {
  return (
    <Flex direction="column">
      <Heading as={level} size={level === 'h2' ? '6' : '4'}>
        {title}
      </Heading>
      {subtitle ? (
        <Text size="2" color="gray" data-testid={subtitleTestId}>
          {subtitle}
        </Text>
      ) : null}
    </Flex>
  );
}
