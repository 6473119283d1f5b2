import { createCookieSessionStorage, redirect } from '@remix-run/node';
import * as z from 'zod';
import { createToast, type ToastInput, type ToastMessage } from './toast.ts';

/**
 * Toasts after a redirect travel in a short-lived flash cookie, so they work
 * without JavaScript too (STYLE 9). The root loader reads and clears it.
 */
const TOAST_KEY = 'toast';

const toastSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  variant: z.enum(['default', 'destructive']).optional(),
});

const toastStorage = createCookieSessionStorage({
  cookie: {
    name: 'finflow_toast',
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    maxAge: 60,
    secrets: [process.env.SESSION_SECRET ?? 'finflow-toast'],
    secure: process.env.NODE_ENV === 'production',
  },
});

export async function toastHeaders(input: ToastInput): Promise<Headers> {
  const session = await toastStorage.getSession();
  session.flash(TOAST_KEY, createToast(input));
  return new Headers({ 'Set-Cookie': await toastStorage.commitSession(session) });
}

export async function redirectWithToast(url: string, input: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  for (const [key, value] of await toastHeaders(input)) headers.append(key, value);
  return redirect(url, { ...init, headers });
}

export async function getToast(request: Request): Promise<{ toast: ToastMessage | null; headers: Headers | null }> {
  const session = await toastStorage.getSession(request.headers.get('Cookie'));
  // has() before get(): reading a flash value removes it from the session.
  if (!session.has(TOAST_KEY)) return { toast: null, headers: null };
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: new Headers({ 'Set-Cookie': await toastStorage.destroySession(session) }),
  };
}
