import radixStyles from '@radix-ui/themes/styles.css';
import { Theme } from '@radix-ui/themes';
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteError, useRouteLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useChangeLanguage } from 'remix-i18next/react';
import { NotFound } from './components/not-found.tsx';
import { ToastProvider } from './components/toaster.tsx';
import { getToast } from './utils/toast.server.ts';
import appStyles from './styles/app.css';
import { languageFromRequest } from './i18next.server.ts';
import { themeFromRequest } from './utils/theme.server.ts';
import type { Theme as Appearance } from './utils/theme.ts';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: radixStyles },
  { rel: 'stylesheet', href: appStyles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [{ title: 'FinFlow' }];

export const handle = { i18n: 'common' };

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request);
  return json({ locale: languageFromRequest(request), theme: themeFromRequest(request), toast }, headers ? { headers } : undefined);
}

// Without JavaScript the Radix controls cannot work; their <noscript> form twins take over.
const NO_SCRIPT_STYLE = '.js-only { display: none !important; } .no-js-only { display: block !important; }';

function Document({ locale, theme, children }: { locale: string; theme: Appearance; children: React.ReactNode }) {
  // Marks the end of hydration: until React commits it, a click on server-rendered markup can reach the
  // browser's default action instead of the handler (a link navigates rather than opening its dialog).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <html lang={locale} className={theme}>
      <head>
        <noscript>
          <style>{NO_SCRIPT_STYLE}</style>
        </noscript>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {/* Solid panels: the translucent default blurs what lies behind every card and panel (64 px), which a
            machine drawing without a GPU (a virtual desktop, the test browser) pays on every frame; the
            pages' panels lie on the plain page background, where solid is the same colour. */}
        <Theme appearance={theme} accentColor="indigo" grayColor="slate" radius="medium" panelBackground="solid">
          {children}
        </Theme>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { locale, theme, toast } = useLoaderData<typeof loader>();
  useChangeLanguage(locale);
  return (
    <Document locale={locale} theme={theme}>
      <ToastProvider initial={toast}>
        <Outlet />
      </ToastProvider>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('root');
  const { t } = useTranslation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // On the server, entry.server.tsx's handleError has logged it already (once, and a database outage as one line).
  if (!notFound && typeof document !== 'undefined') console.error(error);
  return (
    <Document locale={data?.locale ?? 'en'} theme={data?.theme ?? 'light'}>
      {notFound ? (
        <NotFound />
      ) : (
        <main className="centered-page">
          <h1>{t('error.title')}</h1>
          <p>{t('error.description')}</p>
        </main>
      )}
    </Document>
  );
}
