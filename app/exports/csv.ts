import { spreadsheetText } from './cell-text.ts';

/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF; a field with a
 * comma, a double quote, CR or LF is enclosed in double quotes, and its
 * double quotes doubled. NULL is the empty field. A text a spreadsheet would
 * run as a formula gets a leading apostrophe (spreadsheetText).
 */
export const CSV_BOM = '\uFEFF';

export function csvField(value: string | null): string {
  if (value === null) return '';
  const text = spreadsheetText(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: ReadonlyArray<string | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
