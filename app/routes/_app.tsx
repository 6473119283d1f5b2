import { json, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useLocation, useRouteError, useRouteLoaderData } from '@remix-run/react';
import { Button, Callout, Flex, Heading, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { getSignedInUser } from '~/auth/permissions.server.ts';
import { AppShell } from '~/components/app-shell.tsx';
import { NotFound } from '~/components/not-found.tsx';
import { titleKeyForPath } from '~/components/navigation.ts';
import { loadShell } from '~/shell.server.ts';
import { pageTitle } from '~/utils/meta.ts';

/**
 * The signed-in frame of every staff page. A visitor at `/` gets the login
 * page without the frame; anywhere else they are sent to `/`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSignedInUser(request);
  const { pathname } = new URL(request.url);
  if (!user) {
    if (pathname === '/') return json({ shell: null });
    throw redirect('/');
  }
  // An administrator-set temporary password is replaced before anything else.
  if (user.mustChangePassword && pathname !== '/profile') throw redirect('/profile');
  return json({ shell: await loadShell(user, request) });
}

/** The page's sidebar label, as its heading shows it; the sign-in title for the login page. Pages of one record name it instead. */
export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => pageTitle(matches, data?.shell ? titleKeyForPath(location.pathname) : 'login.metaTitle');

export default function AppLayout() {
  const { shell } = useLoaderData<typeof loader>();
  if (!shell) return <Outlet />;
  return (
    <AppShell shell={shell}>
      <Outlet />
    </AppShell>
  );
}

/**
 * A page whose loader or action failed keeps the frame (sidebar, user menu,
 * search): the shell's data was loaded by this route's own loader, which
 * succeeded, so only the page's part shows the error. Without the shell's
 * data (this loader itself failed: no session store, no database) the page is
 * the error alone, as the root's boundary shows it.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('routes/_app');
  // Rethrowing here would log a second, generic error for the same failure.
  if (!data?.shell) return <StandaloneError error={error} />;
  return (
    <AppShell shell={data.shell}>
      <PageError error={error} />
    </AppShell>
  );
}

function errorTexts(error: unknown): { notFound: boolean; title: string; description: string } {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const unavailable = isRouteErrorResponse(error) && error.status === 503;
  const [title, description] = notFound
    ? ['notFound.title', 'notFound.description']
    : unavailable
      ? ['error.unavailableTitle', 'error.unavailableDescription']
      : ['error.title', 'error.description'];
  return { notFound, title, description };
}

function StandaloneError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const { notFound, title, description } = errorTexts(error);
  if (notFound) return <NotFound />;
  if (typeof document !== 'undefined') console.error(error);
  return (
    <main className="centered-page">
      <h1>{t(title)}</h1>
      <p>{t(description)}</p>
    </main>
  );
}

function PageError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { notFound, title, description } = errorTexts(error);
  // On the server, entry.server.tsx's handleError has logged it already.
  if (!notFound && typeof document !== 'undefined') console.error(error);
  return (
    <Callout.Root color={notFound ? 'gray' : 'red'} role="alert" data-testid="page-error">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          {t(title)}
        </Heading>
        <Text>{t(description)}</Text>
        <Flex gap="2">
          {notFound ? null : (
            <Button asChild variant="soft">
              <Link to={`${location.pathname}${location.search}`} reloadDocument>
                {t('error.retry')}
              </Link>
            </Button>
          )}
          <Button asChild variant="soft" color="gray">
            <Link to="/">{t('notFound.back')}</Link>
          </Button>
        </Flex>
      </Flex>
    </Callout.Root>
  );
}
