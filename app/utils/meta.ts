import type { MetaArgs } from '@remix-run/node';
import { defaultLanguage, isLanguage, resources, type Language } from '../i18n.ts';

/**
 * Page titles in the reader's language. `meta` runs before React renders, on
 * the server and on each client navigation, so it cannot use the i18n hook:
 * it reads the language the root loader chose and looks the key up in the
 * bundled texts (the same ones i18next uses).
 */

type Matches = MetaArgs['matches'];

export function languageOf(matches: Matches): Language {
  const locale = (matches.find((match) => match.id === 'root')?.data as { locale?: unknown } | undefined)?.locale;
  return isLanguage(locale) ? locale : defaultLanguage;
}

/** The text of `key` ('clients.title') in `language`, with {{name}} filled from `params`; the key itself when missing. */
export function translate(language: Language, key: string, params: Record<string, string | number> = {}): string {
  const found = key
    .split('.')
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), resources[language].common);
  const text = typeof found === 'string' ? found : key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** '<title> · FinFlow'; a record's own name (`name`) when the page shows one, else the text of `key`. */
export function pageTitle(matches: Matches, key: string, name?: string | null): Array<{ title: string }> {
  const title = name?.trim() || translate(languageOf(matches), key);
  return [{ title: `${title} · FinFlow` }];
}
