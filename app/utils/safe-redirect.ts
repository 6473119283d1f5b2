import { isSingleLineText } from './validation.ts';

/**
 * Only same-site relative paths: a `redirectTo` from a form must not send the
 * user elsewhere, nor carry control characters (a CR/LF or NUL in a Location
 * header would split it or make the response fail).
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\') || !isSingleLineText(to)) return fallback;
  return to;
}
