import { RemixI18Next } from 'remix-i18next/server';
import { defaultLanguage, i18nConfig, isLanguage, LANGUAGE_KEY, supportedLanguages } from './i18n.ts';
import { readCookie } from './utils/cookies.ts';

/**
 * The language comes from a plain cookie that the language switcher writes
 * (beside localStorage), so the server renders in the chosen language. The
 * product's default is English whatever the browser prefers (docs/screens.md).
 */
export function languageFromRequest(request: Request) {
  const value = readCookie(request.headers.get('Cookie'), LANGUAGE_KEY);
  if (isLanguage(value)) return value;
  // The debtor's link opens in Croatian until the debtor chooses (docs/screens.md).
  return new URL(request.url).pathname.startsWith('/debtor/') ? 'hr' : defaultLanguage;
}

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage: defaultLanguage,
    order: ['custom'],
    findLocale: async (request) => languageFromRequest(request),
  },
  i18next: i18nConfig,
});
