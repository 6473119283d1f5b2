import { createInstance } from 'i18next';
import { i18nConfig } from '../i18n.ts';

/**
 * The one error vocabulary (docs/decisions/013-error-codes.md): a refusal is a
 * code that is also its i18n key, with params. Enum params (a status, a verb)
 * travel raw; the texts translate them by key path (`$t(invoices.status.{{status}})`
 * in hr). The API's English message is the `en` text of the code, so the
 * product's English texts live in app/locales/en only. Browser-safe: pages
 * translate with the same functions.
 */
export type RefusalParams = Record<string, string | number>;
export interface Refusal {
  code: string;
  params?: RefusalParams;
}

/** A code is a dotted i18n key; anything else (a zod default text, a non-JSON error) is shown as it came. */
const CODE = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_]+)+$/;

/**
 * One refusal as one string, for the string arrays conform keeps per field:
 * the code alone, or the code, a space and its params as JSON.
 */
export function encodeRefusal(code: string, params?: RefusalParams): string {
  return params && Object.keys(params).length > 0 ? `${code} ${JSON.stringify(params)}` : code;
}

export function decodeRefusal(text: string): Refusal | null {
  const space = text.indexOf(' ');
  const code = space < 0 ? text : text.slice(0, space);
  if (!CODE.test(code)) return null;
  if (space < 0) return { code };
  try {
    const params: unknown = JSON.parse(text.slice(space + 1));
    return params && typeof params === 'object' && !Array.isArray(params) ? { code, params: params as RefusalParams } : null;
  } catch {
    return null;
  }
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Params that are enum values, by the area of the code: the page adds
 * `<param>Label`, the value's label in the reader's language, for texts
 * that name it (hr); the raw value stays for texts that quote it (en, as the API does).
 */
const LABEL_PATHS: Record<string, Record<string, string>> = {
  invoices: { status: 'invoices.status', verb: 'invoices.verbs' },
  payments: { status: 'payments.status', payoutStatus: 'payments.payouts.status', invoiceStatus: 'invoices.status' },
  tasks: { status: 'tasks.status' },
  limits: { status: 'limits.status' },
  einvoices: { status: 'invoices.status' },
  recourse: { status: 'invoices.status', requestStatus: 'recourse.status' },
  dilution: { invoiceStatus: 'invoices.status' },
};

/**
 * Params that list items with their raw status, `INV-1 (exported), INV-2 (paid)`
 * (built by `statusList`), by the area of the code: the page adds
 * `<param>Label`, the same list with each status as its label in the reader's language.
 */
const STATUS_LIST_PATHS: Record<string, Record<string, string>> = {
  payments: { payouts: 'payments.payouts.status' },
};

/** One param naming several items and their statuses, as the en texts quote them; `STATUS_LIST_PATHS` translates it. */
export function statusList(items: Array<{ name: string; status: string }>): string {
  return items.map(({ name, status }) => `${name} (${status})`).join(', ');
}

const LISTED_STATUS = /\(([a-z_]+)\)(?=, |$)/g;

/** The text of an encoded refusal in `t`'s language; a string that is no known code is shown as it came. */
export function refusalText(t: Translate, exists: (key: string) => boolean, text: string): string {
  const refusal = decodeRefusal(text);
  if (!refusal || !exists(refusal.code)) return text;
  const params: Record<string, unknown> = { ...refusal.params };
  const paths = LABEL_PATHS[refusal.code.split('.')[0]] ?? {};
  for (const [name, path] of Object.entries(paths)) {
    const value = params[name];
    if (value !== undefined && exists(`${path}.${value}`)) params[`${name}Label`] = t(`${path}.${value}`);
  }
  for (const [name, path] of Object.entries(STATUS_LIST_PATHS[refusal.code.split('.')[0]] ?? {})) {
    const value = params[name];
    if (typeof value === 'string') params[`${name}Label`] = value.replace(LISTED_STATUS, (raw, status) => (exists(`${path}.${status}`) ? `(${t(`${path}.${status}`)})` : raw));
  }
  return t(refusal.code, params);
}

const english = createInstance({ ...i18nConfig, lng: 'en', initImmediate: false, saveMissing: false });
void english.init();

/** Whether `code` has a text (the locales' keys are the same in both languages: app/i18n.test.ts). */
export function isRefusalCode(code: string): boolean {
  return CODE.test(code) && english.exists(code);
}

/** The English text of a refusal: the API's `message` and `errors` (docs/api.md#errors). */
export function englishText(code: string, params?: RefusalParams): string {
  return isRefusalCode(code) ? english.t(code, params ?? {}) : code;
}
