import { json, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';
import { getSignedInUser } from '~/auth/permissions.server.ts';
import { AppShell } from '~/components/app-shell.tsx';
import { loadShell } from '~/shell.server.ts';

/**
 * The signed-in frame of every staff page. A visitor at `/` gets the login
 * page without the frame (spec §2); anywhere else they are sent to `/`.
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
  return json({ shell: await loadShell(user) });
}

export default function AppLayout() {
  const { shell } = useLoaderData<typeof loader>();
  if (!shell) return <Outlet />;
  return (
    <AppShell shell={shell}>
      <Outlet />
    </AppShell>
  );
}
