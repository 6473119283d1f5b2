import { type ActionFunctionArgs, redirect } from '@remix-run/node';
import { logout } from '~/auth/login.server.ts';
import { clientIp } from '~/auth/login.server.ts';

/** The user menu's logout: ends the session on the server and returns to the login page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { headers } = await logout(request, { ip: clientIp(context) });
  return redirect('/', { headers });
}

export function loader() {
  return redirect('/');
}
