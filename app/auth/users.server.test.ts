import { describe, expect, it } from 'vitest';
import { selectOne, selectRows } from '../db.server.ts';
import { startLogin } from './login.server.ts';
import { verifyPassword } from './password.server.ts';
import { getSignedInUser } from './permissions.server.ts';
import { createSessionCookie, getSession } from './session.server.ts';
import { activityRows, apiFailure, getRequest, invalidInput, jsonRequest, signedInCookie } from './test-helpers.server.ts';
import { changePassword, createStaffUser, findSetPasswordToken, listUsers, setPasswordWithToken, setUserActive, setUserOtp, setUserRole, updateProfile } from './users.server.ts';
import { createTestUser, TEST_PASSWORD } from '../../tests/factories.ts';

const asActor = (row: { id: string; role: 'user' | 'manager' | 'admin' | 'super_admin' }) => ({ id: row.id, role: row.role });

describe('creating staff users', () => {
  it('creates a user with a one-time set-password link, storing only its hash', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const { user, setPasswordLink } = await createStaffUser(
      asActor(admin),
      { email: 'New.Person@FinFlow.test', firstName: 'Nova', lastName: 'Osoba', role: 'manager' },
      { ip: '10.1.1.1' },
    );
    expect(user).toMatchObject({ email: 'new.person@finflow.test', role: 'manager', isActive: true, mustChangePassword: false });
    expect(setPasswordLink).toMatch(/\/set-password\/[\w-]{43}$/);
    const token = setPasswordLink!.split('/').pop()!;
    const stored = await selectOne<{ token_hash: string; expires_at: Date; purpose: string }>(`SELECT * FROM user_tokens WHERE user_id = :id`, { id: user.id });
    expect(stored?.purpose).toBe('set_password');
    expect(stored?.token_hash).not.toContain(token);
    expect(stored!.expires_at.getTime() - Date.now()).toBeGreaterThan(71 * 3600_000);

    const [log] = await activityRows('user_created', user.id);
    expect(log).toMatchObject({ user_id: admin.id, ip_address: '10.1.1.1', details: { email: 'new.person@finflow.test', role: 'manager' } });
    expect(JSON.stringify(log.details)).not.toContain(token);

    // The link works once.
    expect(await findSetPasswordToken(token)).toMatchObject({ email: 'new.person@finflow.test' });
    await setPasswordWithToken(token, { newPassword: 'Brand-new-pass-1', confirmPassword: 'Brand-new-pass-1' });
    expect(await findSetPasswordToken(token)).toBeNull();
    expect(await apiFailure(setPasswordWithToken(token, { newPassword: 'Another-pass-1', confirmPassword: 'Another-pass-1' }))).toMatchObject({ status: 400 });
    const login = await startLogin(jsonRequest('/api/auth/login', { email: 'new.person@finflow.test', password: 'Brand-new-pass-1' }));
    expect(login.data.needsTotpSetup).toBe(true);
  });

  it('creates a user with an initial password that must be changed', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const { user, setPasswordLink } = await createStaffUser(asActor(admin), {
      email: 'initial@finflow.test',
      firstName: 'I',
      lastName: 'P',
      role: 'user',
      password: 'Initial-pass-1',
    });
    expect(setPasswordLink).toBeNull();
    expect(user.mustChangePassword).toBe(true);
    const [log] = await activityRows('user_created', user.id);
    expect(JSON.stringify(log.details)).not.toContain('Initial-pass-1');
  });

  it('answers a duplicate email with 409 and invalid input with 400 per field', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const input = { email: 'dup@finflow.test', firstName: 'D', lastName: 'U', role: 'user' as const };
    await createStaffUser(asActor(admin), input);
    expect(await apiFailure(createStaffUser(asActor(admin), { ...input, email: 'DUP@finflow.test' }))).toMatchObject({
      status: 409,
      body: { errors: { email: ['A user with this email already exists'] } },
    });
    const invalid = await apiFailure(createStaffUser(asActor(admin), { email: 'nope', firstName: '', lastName: '', role: invalidInput('boss') }));
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors ?? {}).sort()).toEqual(['email', 'firstName', 'lastName', 'role']);
  });

  it('lets only a super_admin create a super_admin, and only admins create users', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const manager = await createTestUser({ role: 'manager' });
    const superAdmin = await createTestUser({ role: 'super_admin' });
    const input = { email: 'boss@finflow.test', firstName: 'B', lastName: 'S', role: 'super_admin' as const };
    expect((await apiFailure(createStaffUser(asActor(admin), input))).status).toBe(403);
    expect((await apiFailure(createStaffUser(asActor(manager), { ...input, role: 'user' }))).status).toBe(403);
    expect((await createStaffUser(asActor(superAdmin), input)).user.role).toBe('super_admin');
  });
});

describe('role, status and OTP changes', () => {
  it('refuses changing one’s own role or active flag (403)', async () => {
    const admin = await createTestUser({ role: 'admin' });
    expect(await apiFailure(setUserRole(asActor(admin), admin.id, 'user'))).toMatchObject({ status: 403 });
    expect(await apiFailure(setUserActive(asActor(admin), admin.id, false))).toMatchObject({ status: 403 });
    // The OTP switch is allowed on one's own row (docs/domain-model.md#roles-and-permissions).
    expect((await setUserOtp(asActor(admin), admin.id, false)).otpEnabled).toBe(false);
  });

  it('lets only a super_admin grant super_admin or touch a super_admin', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const superAdmin = await createTestUser({ role: 'super_admin' });
    const target = await createTestUser({ role: 'user' });
    expect((await apiFailure(setUserRole(asActor(admin), target.id, 'super_admin'))).status).toBe(403);
    expect((await apiFailure(setUserRole(asActor(admin), superAdmin.id, 'user'))).status).toBe(403);
    expect((await apiFailure(setUserActive(asActor(admin), superAdmin.id, false))).status).toBe(403);
    expect((await apiFailure(setUserOtp(asActor(admin), superAdmin.id, false))).status).toBe(403);

    expect((await setUserRole(asActor(superAdmin), target.id, 'super_admin')).role).toBe('super_admin');
    const [log] = await activityRows('user_role_changed', target.id);
    expect(log).toMatchObject({ user_id: superAdmin.id, details: { oldRole: 'user', newRole: 'super_admin' } });
  });

  it('answers unknown or malformed ids with 404 and non-admins with 403', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const manager = await createTestUser({ role: 'manager' });
    expect((await apiFailure(setUserRole(asActor(admin), '00000000-0000-4000-8000-000000000000', 'user'))).status).toBe(404);
    expect((await apiFailure(setUserActive(asActor(admin), 'not-a-uuid', false))).status).toBe(404);
    expect((await apiFailure(setUserRole(asActor(manager), admin.id, 'user'))).status).toBe(403);
  });

  it('deactivating ends the user’s sessions and logs the change', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const target = await createTestUser();
    const cookie = await signedInCookie(target.id);
    await createSessionCookie({ pendingUserId: target.id, pendingStartedAt: Date.now() });
    const updated = await setUserActive(asActor(admin), target.id, false, { ip: '10.2.2.2' });
    expect(updated.isActive).toBe(false);
    expect(await getSignedInUser(getRequest('/', cookie))).toBeNull();
    expect(await selectRows(`SELECT id FROM sessions WHERE user_id = :id OR data->>'pendingUserId' = :id`, { id: target.id })).toHaveLength(0);
    const [log] = await activityRows('user_status_changed', target.id);
    expect(log).toMatchObject({ user_id: admin.id, ip_address: '10.2.2.2', details: { oldIsActive: true, newIsActive: false, sessionsEnded: 2 } });

    await setUserActive(asActor(admin), target.id, true);
    expect(await activityRows('user_status_changed', target.id)).toHaveLength(2);
  });

  it('switches the second factor and logs it; no change, no log', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const target = await createTestUser();
    expect((await setUserOtp(asActor(admin), target.id, true)).otpEnabled).toBe(true);
    expect(await activityRows('user_otp_changed', target.id)).toHaveLength(0);
    expect((await setUserOtp(asActor(admin), target.id, false)).otpEnabled).toBe(false);
    const [log] = await activityRows('user_otp_changed', target.id);
    expect(log.details).toMatchObject({ oldOtpEnabled: true, newOtpEnabled: false });
    const login = await startLogin(jsonRequest('/api/auth/login', { email: target.email, password: TEST_PASSWORD }));
    expect(login.data).toEqual({ requiresTotp: false, needsTotpSetup: false });
  });

  it('lists users newest first with a total and a search', async () => {
    await createTestUser({ email: 'zvonimir.searchable@finflow.test' });
    const all = await listUsers();
    expect(all.total).toBeGreaterThan(1);
    expect(all.users[0]).not.toHaveProperty('passwordHash');
    const found = await listUsers({ q: 'zvonimir' });
    expect(found).toMatchObject({ total: 1, users: [{ email: 'zvonimir.searchable@finflow.test' }] });
    expect((await listUsers({ q: '%' })).total).toBe(0);
    expect((await listUsers({ limit: 1 })).users).toHaveLength(1);
  });
});

describe('one’s own account', () => {
  it('updates the profile, logging old and new values', async () => {
    const user = await createTestUser();
    const updated = await updateProfile(asActor(user), { firstName: ' Marija ', lastName: 'Horvat', email: 'Marija@FinFlow.test' });
    expect(updated).toMatchObject({ firstName: 'Marija', lastName: 'Horvat', email: 'marija@finflow.test' });
    const [log] = await activityRows('profile_updated', user.id);
    expect(log.details).toEqual({
      changes: {
        firstName: { old: 'Test', new: 'Marija' },
        lastName: { old: 'User', new: 'Horvat' },
        email: { old: user.email, new: 'marija@finflow.test' },
      },
    });
  });

  it('validates the profile with the spec’s messages and refuses a taken email', async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    expect(await apiFailure(updateProfile(asActor(user), { firstName: '', lastName: '', email: 'x' }))).toMatchObject({
      status: 400,
      body: { errors: { firstName: ['Ime je obavezno'], lastName: ['Prezime je obavezno'], email: ['Neispravna email adresa'] } },
    });
    expect((await apiFailure(updateProfile(asActor(user), { firstName: 'A', lastName: 'B', email: other.email }))).status).toBe(409);
  });

  it('changes the password, ending the other sessions', async () => {
    const user = await createTestUser();
    const current = await signedInCookie(user.id);
    const elsewhere = await signedInCookie(user.id);
    const currentId = (await getSession(getRequest('/', current))).id;

    const wrong = await apiFailure(changePassword(asActor(user), { currentPassword: 'not-it', newPassword: 'New-password-1', confirmPassword: 'New-password-1' }));
    expect(wrong).toMatchObject({ status: 400, body: { errors: { currentPassword: ['Trenutna lozinka nije ispravna'] } } });

    await changePassword(
      asActor(user),
      { currentPassword: TEST_PASSWORD, newPassword: 'New-password-1', confirmPassword: 'New-password-1' },
      { exceptSessionId: currentId, ip: '10.3.3.3' },
    );
    const row = await selectOne<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = :id`, { id: user.id });
    expect(await verifyPassword('New-password-1', row?.password_hash)).toBe(true);
    expect(await getSignedInUser(getRequest('/', current))).not.toBeNull();
    expect(await getSignedInUser(getRequest('/', elsewhere))).toBeNull();
    const [log] = await activityRows('password_changed', user.id);
    expect(log).toMatchObject({ user_id: user.id, ip_address: '10.3.3.3' });
    expect(JSON.stringify(log.details)).not.toContain('New-password-1');
  });

  it('validates the password change with the spec’s messages', async () => {
    const user = await createTestUser();
    expect(await apiFailure(changePassword(asActor(user), { currentPassword: '', newPassword: 'short', confirmPassword: '' }))).toMatchObject({
      status: 400,
      body: {
        errors: {
          currentPassword: ['Trenutna lozinka je obavezna'],
          newPassword: ['Nova lozinka mora imati najmanje 8 znakova'],
          confirmPassword: ['Potvrda lozinke je obavezna'],
        },
      },
    });
    expect(await apiFailure(changePassword(asActor(user), { currentPassword: TEST_PASSWORD, newPassword: 'Long-enough-1', confirmPassword: 'Different-1' }))).toMatchObject({
      status: 400,
      body: { errors: { confirmPassword: ['Lozinke se ne podudaraju'] } },
    });
  });
});
