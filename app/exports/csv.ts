/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF; a field with a
 * comma, a double quote, CR or LF is enclosed in double quotes, and its
 * double quotes doubled. NULL is the empty field.
 */
export const CSV_BOM = '\uFEFF';

export function csvField(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvRecord(values: ReadonlyArray<string | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
