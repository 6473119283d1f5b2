import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { RemixI18Next } from 'remix-i18next/server';
import { defaultLanguage, i18nConfig, isLanguage, LANGUAGE_KEY, supportedLanguages, type Language } from './i18n.ts';
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

const rendering = new Map<Language, I18n>();

/**
 * The i18next instance a page renders with, one per language for the life of
 * the process: the texts are bundled and never change, and the server never
 * switches an instance's language, so requests can share it (an instance per
 * request cost an init per page). Plain texts (a key without options, as
 * `useTranslation`'s `t('key')` asks) are remembered after their first
 * lookup: i18next resolves, interpolates and post-processes every call, about
 * a tenth of a page's CPU (docs/benchmarks.md). A missing key is never
 * remembered, so it warns each time as before.
 */
export async function renderingI18n(language: Language): Promise<I18n> {
  const existing = rendering.get(language);
  if (existing) return existing;
  const instance = createInstance();
  await instance.use(initReactI18next).init({ ...i18nConfig, lng: language, ns: ['common'] });
  rememberPlainTexts(instance, language);
  rendering.set(language, instance);
  return instance;
}

/** Option names `getFixedT` always sets; anything else (count, values, a default) takes i18next's full path. */
const FIXED_T_OPTIONS = new Set(['lng', 'lngs', 'ns', 'keyPrefix']);

function isPlainLookup(language: Language, options: unknown): boolean {
  if (options === undefined) return true;
  if (typeof options !== 'object' || options === null) return false;
  for (const [name, value] of Object.entries(options)) {
    if (!FIXED_T_OPTIONS.has(name)) return false;
    if (value === undefined || value === null) continue;
    if (name === 'lng' && value !== language) return false;
    if (name === 'ns' && value !== 'common' && !(Array.isArray(value) && value.length === 1 && value[0] === 'common')) return false;
    if (name === 'lngs' || name === 'keyPrefix') return false;
  }
  return true;
}

function rememberPlainTexts(instance: I18n, language: Language) {
  const texts = new Map<string, string>();
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  instance.t = ((key: unknown, options?: unknown) => {
    if (typeof key !== 'string' || !isPlainLookup(language, options)) return translate(key, options);
    const known = texts.get(key);
    if (known !== undefined) return known;
    const text = translate(key, options);
    if (typeof text === 'string' && text !== key) texts.set(key, text);
    return text;
  }) as I18n['t'];
}
