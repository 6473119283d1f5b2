import { createInstance } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18nConfig } from '~/i18n.ts';
import { apiError } from '~/utils/api.server.ts';
import { englishText, refusalText } from '~/utils/refusals.ts';

// The sign-in steps fail here on purpose, as a broken database or a bug would make them fail.
const steps = vi.hoisted(() => ({ startLogin: vi.fn(), setupTotp: vi.fn(), verifyTotpSetup: vi.fn() }));
vi.mock('~/auth/login.server.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), ...steps }));

const { action } = await import('./_app._index.tsx');

const post = (fields: Record<string, string>) =>
  action({
    request: new Request('http://localhost/', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }),
    params: {},
    context: {},
  });

async function hrText(text: string) {
  const hr = createInstance({ ...i18nConfig, lng: 'hr', initImmediate: false, saveMissing: false });
  await hr.init();
  return refusalText(hr.t, (key) => hr.exists(key), text);
}

afterEach(() => {
  vi.restoreAllMocks();
  Object.values(steps).forEach((step) => step.mockReset());
});

describe('the login action when a step fails unexpectedly', () => {
  it('logs the error and answers the login fallback by code instead of an error page', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('connection terminated');
    steps.startLogin.mockRejectedValue(failure);
    const response = await post({ intent: 'login', email: 'ana@finflow.test', password: 'x' });
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toEqual({ step: 'credentials', error: 'login.errors.loginFailed' });
    expect(englishText(String(body.error))).toBe('Login failed');
    expect(await hrText(String(body.error))).toBe('Prijava nije uspjela');
    expect(log).toHaveBeenCalledWith('login: login failed', failure);
  });

  it('answers the TOTP set-up fallback when the set-up fails, on the set-up screen with its QR and key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    steps.verifyTotpSetup.mockRejectedValue(new TypeError('cannot read the pending secret'));
    const response = await post({ intent: 'verify-setup', totpCode: '123456', qrCode: 'data:image/png;base64,AAAA', manualKey: 'KEY' });
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toEqual({ step: 'setup', qrCode: 'data:image/png;base64,AAAA', manualKey: 'KEY', error: 'login.errors.totpSetupFailed' });
    expect(englishText(String(body.error))).toBe('Failed to setup TOTP');
    expect(await hrText(String(body.error))).toBe('Postavljanje autentifikatora nije uspjelo');

    // Starting the set-up after the password: back to the credentials (there is no QR to show yet).
    steps.startLogin.mockResolvedValue({ data: { requiresTotp: false, needsTotpSetup: true }, headers: {} });
    steps.setupTotp.mockRejectedValue(new Error('qrcode failed'));
    const started = await post({ intent: 'login', email: 'ana@finflow.test', password: 'x' });
    expect(started.status).toBe(500);
    expect(await started.json()).toEqual({ step: 'credentials', error: 'login.errors.totpSetupFailed' });
  });

  it('still answers a refusal with its own code and status', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    steps.startLogin.mockRejectedValue(apiError(401, 'errors.auth.invalidCredentials'));
    const response = await post({ intent: 'login', email: 'ana@finflow.test', password: 'wrong' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ step: 'credentials', error: 'errors.auth.invalidCredentials' });
    expect(log).not.toHaveBeenCalled();
  });
});
