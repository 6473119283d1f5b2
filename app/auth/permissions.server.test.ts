import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, ROLE_PERMISSIONS, can, getSignedInUser, requirePermission, requireUser, type Permission } from './permissions.server.ts';
import { execute } from '../db.server.ts';
import type { Role } from './schemas.ts';
import { getRequest, rejection, signedInCookie } from './test-helpers.server.ts';
import { createTestUser } from '../../tests/factories.ts';

const cases: Array<[Permission, Record<Role, boolean>]> = [
  ['read:all', { user: true, manager: true, admin: true, super_admin: true }],
  ['create:invoice', { user: true, manager: true, admin: true, super_admin: true }],
  ['work:task', { user: true, manager: true, admin: true, super_admin: true }],
  ['verify:invoice', { user: false, manager: true, admin: true, super_admin: true }],
  ['approve:invoice', { user: false, manager: true, admin: true, super_admin: true }],
  ['finance:invoice', { user: false, manager: true, admin: true, super_admin: true }],
  ['decide:credit_limit', { user: false, manager: true, admin: true, super_admin: true }],
  ['adjust:ledger', { user: false, manager: true, admin: true, super_admin: true }],
  ['manage:book_settings', { user: false, manager: false, admin: true, super_admin: true }],
  ['decide:kyc', { user: false, manager: true, admin: true, super_admin: true }],
  ['confirm:payment', { user: false, manager: true, admin: true, super_admin: true }],
  ['edit:email_template', { user: false, manager: true, admin: true, super_admin: true }],
  ['manage:users', { user: false, manager: false, admin: true, super_admin: true }],
  ['manage:integrations', { user: false, manager: false, admin: true, super_admin: true }],
  ['export:data', { user: false, manager: false, admin: true, super_admin: true }],
  ['manage:backups', { user: false, manager: false, admin: true, super_admin: true }],
  ['grant:super_admin', { user: false, manager: false, admin: false, super_admin: true }],
];

describe('the role → permission table', () => {
  for (const [permission, expected] of cases) {
    it(`${permission}`, () => {
      for (const role of Object.keys(expected) as Role[]) expect(can({ role }, permission), `${role} ${permission}`).toBe(expected[role]);
    });
  }

  it('gives each role everything of the roles below it', () => {
    const order: Role[] = ['user', 'manager', 'admin', 'super_admin'];
    for (let i = 1; i < order.length; i++) {
      for (const permission of ROLE_PERMISSIONS[order[i - 1]]) expect(ROLE_PERMISSIONS[order[i]].has(permission)).toBe(true);
    }
    expect(ROLE_PERMISSIONS.super_admin.size).toBe(ALL_PERMISSIONS.length);
  });

  it('denies inactive and missing users', () => {
    expect(can({ role: 'super_admin', isActive: false }, 'read:all')).toBe(false);
    expect(can(null, 'read:all')).toBe(false);
  });
});

describe('requireUser / requirePermission', () => {
  it('answers an API request without a session with 401 JSON', async () => {
    const error = await rejection(requireUser(getRequest('/api/clients')));
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(401);
    expect(await (error as Response).json()).toEqual({ message: 'Unauthorized', code: 'errors.auth.unauthorized', params: {} });
  });

  it('redirects a page request without a session to /', async () => {
    const error = (await rejection(requireUser(getRequest('/clients')))) as Response;
    expect(error.status).toBe(302);
    expect(error.headers.get('Location')).toBe('/');
    const forcedApi = (await rejection(requireUser(getRequest('/clients'), { api: true }))) as Response;
    expect(forcedApi.status).toBe(401);
  });

  it('answers a signed-in user without the permission with 403', async () => {
    const user = await createTestUser({ role: 'user' });
    const cookie = await signedInCookie(user.id);
    const api = (await rejection(requirePermission(getRequest('/api/invoices/1/approve', cookie), 'approve:invoice'))) as Response;
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ message: 'Forbidden', code: 'errors.auth.forbidden', params: {} });
    const page = (await rejection(requirePermission(getRequest('/settings', cookie), 'manage:users'))) as Response;
    expect(page.status).toBe(403);
    expect(await requirePermission(getRequest('/api/clients', cookie), 'create:client')).toMatchObject({ id: user.id });
  });

  it('lets a manager approve', async () => {
    const manager = await createTestUser({ role: 'manager' });
    const cookie = await signedInCookie(manager.id);
    expect(await requirePermission(getRequest('/api/invoices/1/approve', cookie), 'approve:invoice')).toMatchObject({ role: 'manager' });
  });
});

describe('getSignedInUser, once per page request', () => {
  it('reads the user once for all the loaders of one GET, and afresh for the next request', async () => {
    const user = await createTestUser({ role: 'manager' });
    const cookie = await signedInCookie(user.id);
    const request = getRequest('/clients', cookie);
    const [frame, page] = await Promise.all([getSignedInUser(request), requirePermission(request, 'read:all')]);
    expect(page).toBe(frame);
    // A deactivation between two requests applies on the next one.
    await execute('UPDATE users SET is_active = false WHERE id = :id', { id: user.id });
    expect(await getSignedInUser(request)).toBe(frame);
    expect(await getSignedInUser(getRequest('/clients', cookie))).toBeNull();
  });

  it('reads afresh on every call of an action, which may change the user it reads', async () => {
    const user = await createTestUser({ role: 'manager' });
    const cookie = await signedInCookie(user.id);
    const post = new Request('http://localhost/profile', { method: 'POST', headers: { Cookie: cookie } });
    expect(await getSignedInUser(post)).toMatchObject({ role: 'manager' });
    await execute("UPDATE users SET role = 'user' WHERE id = :id", { id: user.id });
    expect(await getSignedInUser(post)).toMatchObject({ role: 'user' });
  });
});
