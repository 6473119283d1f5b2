import { SegmentedControl } from '@radix-ui/themes';
import { useFetcher, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_KEY, supportedLanguages, type Language } from '~/i18n.ts';

/**
 * English / Hrvatski. A plain form post to /preferences (works without
 * JavaScript: the server sets the cookie and redirects back); with
 * JavaScript the choice is also kept in localStorage (docs/screens.md settings).
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher();
  const location = useLocation();
  const redirectTo = `${location.pathname}${location.search}`;
  const current = (fetcher.formData?.get('language') as Language | null) ?? (i18n.language as Language);

  return (
    <fetcher.Form method="post" action="/preferences" aria-label={t('language.label')}>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <noscript>
        {supportedLanguages.map((language) => (
          <button key={language} type="submit" name="language" value={language} aria-pressed={language === current}>
            {t(`language.${language}`)}
          </button>
        ))}
      </noscript>
      <SegmentedControl.Root
        size="1"
        value={current}
        className="js-only"
        aria-label={t('language.label')}
        onValueChange={(language) => {
          window.localStorage.setItem(LANGUAGE_KEY, language);
          fetcher.submit({ language, redirectTo }, { method: 'post', action: '/preferences' });
        }}
      >
        {supportedLanguages.map((language) => (
          <SegmentedControl.Item key={language} value={language} data-testid={`language-${language}`}>
            {t(`language.${language}`)}
          </SegmentedControl.Item>
        ))}
      </SegmentedControl.Root>
    </fetcher.Form>
  );
}
