/** Light or dark; stored in localStorage (docs/screens.md) and a cookie so the server renders it without a flash. */
export type Theme = 'light' | 'dark';
export const THEME_KEY = 'finflow-theme';
export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}
