import { type ActionFunctionArgs, redirect } from '@remix-run/node';
import { isLanguage, LANGUAGE_KEY } from '~/i18n.ts';
import { isTheme, THEME_KEY } from '~/utils/theme.ts';
import { redirectWithToast } from '~/utils/toast.server.ts';
import { safeRedirect } from '~/utils/safe-redirect.ts';
import { readFormData } from '~/utils/form-data.server.ts';

const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

function preferenceCookie(name: string, value: string) {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
}

/**
 * Language and theme for visitors and staff alike: kept in plain cookies so
 * the server renders the page in them from the first byte (no flash), and
 * posted as a form so the switch works without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const redirectTo = safeRedirect(form.get('redirectTo'));
  const language = form.get('language');
  const theme = form.get('theme');
  const headers = new Headers();
  if (isLanguage(language)) headers.append('Set-Cookie', preferenceCookie(LANGUAGE_KEY, language));
  if (isTheme(theme)) {
    headers.append('Set-Cookie', preferenceCookie(THEME_KEY, theme));
    // Settings (docs/screens.md): switching the theme shows a confirmation toast.
    return redirectWithToast(redirectTo, { title: theme === 'dark' ? 'settings.darkModeOn' : 'settings.darkModeOff' }, { headers });
  }
  return redirect(redirectTo, { headers });
}

export function loader() {
  return redirect('/');
}
