import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, SecretStore, signInAsAdmin } from '../support/api-client.ts';
import { PROTECTED_ROUTES } from '../support/protected-routes.ts';
import { freshTotpCode, lastUsedTotpCode } from '../support/totp.ts';
import { staffSession } from '../support/sessions.ts';

/**
 * Every /api route that needs a session or a role (tests/support/protected-routes/*):
 * each answers 401 without a session and 403 to a role below the one it needs.
 */
let admin: ApiClient;

beforeAll(async () => {
  admin = await signInAsAdmin();
});

describe('without a session', () => {
  it.each(PROTECTED_ROUTES)('$method $path answers 401', async ({ method, path, body }) => {
    const response = await new ApiClient().request(method, path, body);
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ message: 'Unauthorized', code: 'errors.auth.unauthorized', params: {} });
  });

  it('sends /api/login to the login page', async () => {
    const response = await new ApiClient().get('/api/login');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
  });

  it('answers unknown /api paths with JSON 404', async () => {
    const response = await new ApiClient().get('/api/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ message: 'Not Found', code: 'errors.api.notFound', params: {} });
  });
});

describe('with a role below the one a route needs', () => {
  const RANK = { user: 0, manager: 1, admin: 2 } as const;
  const below = (role: keyof typeof RANK) => (Object.keys(RANK) as Array<keyof typeof RANK>).filter((r) => RANK[r] < RANK[role]);
  const cases = PROTECTED_ROUTES.flatMap((route) => below(route.role).map((caller) => ({ ...route, caller })));
  const sessions = new Map<string, ApiClient>();

  it.each(cases)('$method $path answers 403 to a $caller', async ({ method, path, body, caller }) => {
    if (!sessions.has(caller)) sessions.set(caller, (await staffSession(admin, caller)).client);
    const response = await sessions.get(caller)!.request(method, path, body);
    expect(response.status).toBe(403);
    expect(response.json).toEqual({ message: 'Forbidden', code: 'errors.auth.forbidden', params: {} });
  });
});

describe('sign-in over the API', () => {
  it('refuses missing credentials with the spec text and wrong ones generically', async () => {
    const client = new ApiClient();
    // The English texts are the API's; the codes are what the pages translate (docs/api.md#errors).
    expect((await client.post('/api/auth/login', {})).json).toMatchObject({
      message: 'Email and password are required',
      code: 'errors.auth.credentialsRequired',
      errors: { email: ['Email and password are required'], password: ['Email and password are required'] },
      errorCodes: { email: [{ code: 'errors.auth.credentialsRequired' }], password: [{ code: 'errors.auth.credentialsRequired' }] },
    });
    const wrong = await client.post('/api/auth/login', { email: 'nobody@finflow.local', password: 'whatever-1' });
    expect(wrong.status).toBe(401);
  });

  it('answers GET /api/auth/user with the user once both factors passed, and refuses a replayed code', async () => {
    const secrets = new SecretStore();
    const me = await admin.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ email: 'e2e-admin@finflow.local', role: 'super_admin', isActive: true, otpEnabled: true });
    expect(me.json).toHaveProperty('id');
    expect(me.json).toHaveProperty('lastLoginAt');
    expect(me.json).not.toHaveProperty('passwordHash');

    const client = new ApiClient();
    const login = await client.post('/api/auth/login', { email: 'e2e-admin@finflow.local', password: 'E2e-admin-password-1' });
    expect(login.json).toEqual({ requiresTotp: true, needsTotpSetup: false });
    // Half signed in is not signed in.
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const secret = secrets.get('e2e-admin@finflow.local')!;
    const replay = await client.post('/api/auth/verify-otp', { otpCode: lastUsedTotpCode(secret) });
    expect(replay.status).toBe(400);
    expect(replay.json).toMatchObject({ message: 'Invalid authenticator code', code: 'errors.auth.invalidCode', errors: { otpCode: ['Invalid authenticator code'] } });
    expect((await client.post('/api/auth/verify-otp', { otpCode: await freshTotpCode(secret) })).status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(200);

    expect((await client.post('/api/auth/logout')).status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(401);
    // Logging out without a session is fine too (docs/api.md).
    expect((await new ApiClient().post('/api/auth/logout')).status).toBe(200);
  });
});

describe('user management rules', () => {
  it('creates a staff user (201), refuses a duplicate email (409) and self-changes (403)', async () => {
    const { email } = await staffSession(admin, 'manager');
    const duplicate = await admin.post('/api/admin/users', { email, firstName: 'X', lastName: 'Y', role: 'user' });
    expect(duplicate.status).toBe(409);
    const me = await admin.get('/api/auth/user');
    expect((await admin.put(`/api/admin/users/${me.json.id}/role`, { role: 'user' })).status).toBe(403);
    expect((await admin.put(`/api/admin/users/${me.json.id}/status`, { isActive: false })).status).toBe(403);
  });

  it('a role change and a deactivation take effect on the next request', async () => {
    const { client, id } = await staffSession(admin, 'user');
    expect((await client.get('/api/admin/users')).status).toBe(403);
    expect((await admin.put(`/api/admin/users/${id}/role`, { role: 'admin' })).status).toBe(200);
    const list = await client.get('/api/admin/users');
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('x-total-count'))).toBeGreaterThan(1);
    expect((await admin.put(`/api/admin/users/${id}/status`, { isActive: false })).status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it('an admin cannot grant super_admin; invalid input is 400 per field', async () => {
    const { client } = await staffSession(admin, 'admin');
    const refused = await client.post('/api/admin/users', { email: 'boss@finflow.local', firstName: 'B', lastName: 'B', role: 'super_admin' });
    expect(refused.status).toBe(403);
    const invalid = await client.post('/api/admin/users', { email: 'not-an-email', firstName: '', lastName: 'B', role: 'king' });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.json.errors as object).sort()).toEqual(['email', 'firstName', 'role']);
  });

  it('refuses a cross-site write before it reaches the route', async () => {
    const response = await admin.request('POST', '/api/admin/users', { email: 'x@finflow.local', firstName: 'X', lastName: 'Y', role: 'user' }, { Origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });
});
