/**
 * The one rule for text that leaves FinFlow in a spreadsheet (the book's CSV
 * files, the analytics CSV and XLSX): a cell that starts with =, +, -, @, a
 * tab or a carriage return would be run as a formula by Excel or LibreOffice
 * ("CSV injection", OWASP), so it gets a leading apostrophe and is shown as
 * the text it is. A number stays a number: '-1234.50', '+5' and '-12,5' (the
 * decimal comma of the Croatian CSV) are amounts, not formulas, and a
 * spreadsheet must still be able to sum them.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

export function spreadsheetText(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}
