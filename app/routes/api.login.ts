import { redirect } from '@remix-run/node';
import { methodNotAllowed } from '~/utils/api.server.ts';

/** docs/screens.md: unauthorized pages navigate to /api/login, which is the login page at `/`. */
export const loader = () => redirect('/');

export const action = () => methodNotAllowed(['GET']);
