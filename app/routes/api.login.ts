import { redirect } from '@remix-run/node';

/** Spec §2: unauthorized pages navigate to /api/login, which is the login page at `/`. */
export const loader = () => redirect('/');
