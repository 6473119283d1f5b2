import { describe, expect, it } from 'vitest';
import { getToast, redirectWithToast } from './toast.server.ts';

describe('flash toasts', () => {
  it('survive one redirect and are read exactly once', async () => {
    const response = await redirectWithToast('/settings', { title: 'settings.darkModeOn' });
    expect(response.status).toBe(302);
    const cookie = response.headers.get('Set-Cookie')!.split(';')[0];
    const first = await getToast(new Request('http://localhost/settings', { headers: { Cookie: cookie } }));
    expect(first.toast).toMatchObject({ title: 'settings.darkModeOn', variant: 'default' });
    expect(first.headers?.get('Set-Cookie')).toMatch(/finflow_toast=;.*Max-Age=0|Expires=Thu, 01 Jan 1970/);
    const none = await getToast(new Request('http://localhost/settings'));
    expect(none).toEqual({ toast: null, headers: null });
  });
});
