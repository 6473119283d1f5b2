import type { ReactNode } from 'react';
import { LightHeading, LightText, Stack } from './light.tsx';

/**
 * The title row at the top of a page inside the shell: the page's h2 (the
 * shell's h1 names the page), an optional grey line under it, and the page's
 * actions at the right ('Add …', a link back), wrapping on a narrow screen.
 */
export function PageHeader({ title, subtitle, subtitleTestId, children }: { title: ReactNode; subtitle?: ReactNode; subtitleTestId?: string; children?: ReactNode }) {
  return (
    <Stack justify="between" align="center" gap="3" wrap="wrap">
      <TitleBlock title={title} subtitle={subtitle} subtitleTestId={subtitleTestId} />
      {children}
    </Stack>
  );
}

/** A heading with an optional grey line under it: a page's (h2) or, with `level="h3"`, a card's (the settings' users). */
export function TitleBlock({ title, subtitle, subtitleTestId, level = 'h2' }: { title: ReactNode; subtitle?: ReactNode; subtitleTestId?: string; level?: 'h2' | 'h3' }) {
  return (
    <Stack direction="column">
      <LightHeading as={level} size={level === 'h2' ? '6' : '4'}>
        {title}
      </LightHeading>
      {subtitle ? (
        <LightText size="2" color="gray" data-testid={subtitleTestId}>
          {subtitle}
        </LightText>
      ) : null}
    </Stack>
  );
}
