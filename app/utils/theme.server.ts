import { readCookie } from './cookies.ts';
import { isTheme, THEME_KEY, type Theme } from './theme.ts';

export function themeFromRequest(request: Request): Theme {
  const value = readCookie(request.headers.get('Cookie'), THEME_KEY);
  return isTheme(value) ? value : 'light';
}
