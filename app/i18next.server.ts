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
 * request cost an init per page). Plain texts and texts with plain
 * `{{name}}` values are answered from their bundled text
 * (`answerSimpleLookups`): i18next resolves, interpolates and post-processes
 * every call, about a tenth of a page's CPU (docs/benchmarks.md). A missing
 * key still warns each time.
 */
export async function renderingI18n(language: Language): Promise<I18n> {
  const existing = rendering.get(language);
  if (existing) return existing;
  const instance = createInstance();
  await instance.use(initReactI18next).init({ ...i18nConfig, lng: language, ns: ['common'] });
  answerSimpleLookups(instance, language);
  rendering.set(language, instance);
  return instance;
}

/** Option names `getFixedT` always sets. */
const FIXED_T_OPTIONS = new Set(['lng', 'lngs', 'ns', 'keyPrefix']);
/** i18next's own options besides those: plurals, context, defaults, nesting… take its full path. */
const I18NEXT_OPTIONS = new Set([
  'count',
  'context',
  'ordinal',
  'replace',
  'fallbackLng',
  'keySeparator',
  'nsSeparator',
  'returnObjects',
  'returnDetails',
  'joinArrays',
  'postProcess',
  'interpolation',
  'skipInterpolation',
  'tDescription',
  'appendNamespaceToMissingKey',
]);

/**
 * The interpolation values of a lookup that can be answered without i18next (an empty object for a plain key), or
 * null: options for another language, namespace or key prefix, i18next's own options (a count, a context…), or a
 * value that is not a string or number, or that i18next would read further (`{{` again, `$t(` nesting).
 */
function simpleLookupValues(language: Language, options: unknown): Record<string, string | number> | null {
  const values: Record<string, string | number> = {};
  if (options === undefined) return values;
  if (typeof options !== 'object' || options === null) return null;
  for (const name in options) {
    const value = (options as Record<string, unknown>)[name];
    if (FIXED_T_OPTIONS.has(name)) {
      if (value === undefined || value === null) continue;
      if (name === 'lng' && value === language) continue;
      if (name === 'ns' && (value === 'common' || (Array.isArray(value) && value.length === 1 && value[0] === 'common'))) continue;
      return null;
    }
    // A default only matters for a missing key, which goes to i18next (a key's text is read before any answer).
    if (name === 'defaultValue' && typeof value === 'string') continue;
    if (I18NEXT_OPTIONS.has(name) || name.startsWith('defaultValue')) return null;
    if (typeof value === 'number') values[name] = value;
    else if (typeof value === 'string' && !value.includes('{{') && !value.includes('$t(')) values[name] = value;
    else return null;
  }
  return values;
}

/** A text split at its `{{name}}` placeholders: literal, name, literal, … (an odd length). */
type Template = string[];
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const PLAIN_NAME = /^\s*([A-Za-z0-9_]+)\s*$/;

/** The template of a text, or null when i18next must read it (a format, `{{- raw}}`, `$t(` nesting). */
function templateOf(text: string): Template | null {
  if (text.includes('$t(')) return null;
  const parts: string[] = [];
  let from = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = PLAIN_NAME.exec(match[1]!);
    if (!name) return null;
    parts.push(text.slice(from, match.index), name[1]!);
    from = match.index + match[0].length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** The template filled in as i18next fills it (a number as its string), or null when a value is missing. */
function fill(template: Template, values: Record<string, string | number>): string | null {
  let text = template[0]!;
  for (let i = 1; i < template.length; i += 2) {
    const value = values[template[i]!];
    if (value === undefined) return null;
    text += String(value) + template[i + 1]!;
  }
  return text;
}

/**
 * Answers the lookups that need nothing of i18next but the text: a key of this instance's language and namespace,
 * with at most plain `{{name}}` values. Each key's text is read once, from the bundled resources; anything else
 * (a missing key, which warns; a fallback to English; plurals, nesting, formats) goes to i18next as before.
 * i18next.server.test.ts checks every key of both languages against i18next's own answer.
 */
function answerSimpleLookups(instance: I18n, language: Language) {
  const templates = new Map<string, Template | null>();
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  const answer = (key: unknown, options?: unknown): unknown => {
    if (typeof key !== 'string') return translate(key, options);
    const values = simpleLookupValues(language, options);
    if (!values) return translate(key, options);
    let template = templates.get(key);
    if (template === undefined) {
      const text: unknown = instance.getResource(language, 'common', key);
      template = typeof text === 'string' ? templateOf(text) : null;
      // A key missing in this language is not kept: i18next warns each time and falls back.
      if (typeof text === 'string') templates.set(key, template);
    }
    const text = template ? fill(template, values) : null;
    return text ?? translate(key, options);
  };
  instance.t = answer as I18n['t'];
  // useTranslation's `t` is getFixedT's, which copies its options and adds this language and namespace on every call
  // before asking `t`: for this language and namespace, `t` itself answers (anything else still goes through i18next's).
  type LooseT = (key: unknown, ...rest: unknown[]) => unknown;
  const fixedT = instance.getFixedT.bind(instance) as unknown as (lng: unknown, ns?: unknown, keyPrefix?: unknown) => LooseT;
  // Every component's useTranslation asks for the same one, a few hundred times a page: made once per way of asking
  // (the language named or not, the namespace as a name or a list), as this instance's language never changes.
  const directs = new Map<string, LooseT>();
  instance.getFixedT = ((lng: unknown, ns?: unknown, keyPrefix?: unknown) => {
    const common = ns === undefined || ns === null || ns === 'common' || (Array.isArray(ns) && ns.length === 1 && ns[0] === 'common');
    if ((lng !== undefined && lng !== null && lng !== language) || keyPrefix || !common) return fixedT(lng, ns, keyPrefix);
    const way = `${lng ?? ''}|${Array.isArray(ns) ? '[common]' : (ns ?? '')}`;
    let direct = directs.get(way);
    if (!direct) {
      const fixed = fixedT(lng, ns, keyPrefix);
      direct = Object.assign(
        (key: unknown, ...rest: unknown[]) =>
          rest.length === 0 || (rest.length === 1 && (rest[0] === undefined || (typeof rest[0] === 'object' && rest[0] !== null))) ? answer(key, rest[0]) : fixed(key, ...rest),
        fixed,
      );
      directs.set(way, direct);
    }
    return direct;
  }) as unknown as I18n['getFixedT'];
}
