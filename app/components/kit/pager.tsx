import { useTranslation } from 'react-i18next';
import { LightText, LinkButton, Stack } from './light.tsx';

/**
 * Previous / next of a paged list as plain links (the page lives in the URL,
 * so paging works without JavaScript), in a named navigation landmark with
 * 'Page x of y' between them. Nothing when the list fits one page. A page
 * with two pagers, or one whose pages need a specific name, passes `label`.
 */
export function Pager({
  page,
  pages,
  hrefFor,
  label,
  testId,
  size = '1',
}: {
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
  label?: string;
  testId?: string;
  /** The party lists and payments show larger buttons beside their larger cards. */
  size?: '1' | '2';
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <Stack justify="center" align="center" gap="3" role="navigation" aria-label={label ?? t('pager.label')} data-testid={testId}>
      {page > 1 ? (
        <LinkButton to={hrefFor(page - 1)} rel="prev" variant="soft" size={size}>
          {t('pager.previous')}
        </LinkButton>
      ) : null}
      <LightText size="2">{t('pager.page', { page, pages })}</LightText>
      {page < pages ? (
        <LinkButton to={hrefFor(page + 1)} rel="next" variant="soft" size={size}>
          {t('pager.next')}
        </LinkButton>
      ) : null}
    </Stack>
  );
}
