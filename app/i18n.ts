import en from './locales/en.json';
import hr from './locales/hr.json';

/** Shared i18next configuration; the translations are bundled so no request is needed to render. */
export const supportedLanguages = ['en', 'hr'] as const;
export type Language = (typeof supportedLanguages)[number];
export const defaultLanguage: Language = 'en';
/** Cookie (server render) and localStorage (spec §2 settings) key for the chosen language. */
export const LANGUAGE_KEY = 'finflow-language';

export const resources = { en: { common: en }, hr: { common: hr } } as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value);
}

export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: defaultLanguage,
  defaultNS: 'common',
  ns: ['common'],
  resources,
  interpolation: { escapeValue: false },
  // Spec §5: a missing key logs a warning and shows the key itself.
  saveMissing: true,
  missingKeyHandler: (languages: readonly string[], namespace: string, key: string) => {
    console.warn(`Missing translation: ${languages.join(',')}/${namespace}:${key}`);
  },
  returnNull: false,
};
