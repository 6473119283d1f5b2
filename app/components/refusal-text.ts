import { useTranslation } from 'react-i18next';
import { refusalText } from '~/utils/refusals.ts';

/**
 * Refusals (a form's zod messages and the server's, both codes:
 * docs/decisions/013-error-codes.md) in the reader's language. A text that is
 * no known code is shown as it came.
 */
export function useRefusalText() {
  const { t, i18n } = useTranslation();
  return (text: string) => refusalText(t, (key) => i18n.exists(key), text);
}

/** The same for a field's list of errors, as conform keeps them. */
export function useRefusalTexts() {
  const text = useRefusalText();
  return (errors: string[] | null | undefined) => errors?.map(text);
}
