import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { getEnv } from '../env.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { logActivity } from '../activity-log.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectRows } from '../db.server.ts';
import { hashPassword, verifyPassword } from './password.server.ts';
import { assertCan, can } from './permissions.server.ts';
import { AUTH_ERRORS, changePasswordSchema, createUserSchema, profileSchema, setPasswordSchema, type Role } from './schemas.ts';
import { endSessionsOfUser } from './session.server.ts';
import { assertNotThrottled, recordFailure, resetThrottle } from './throttle.server.ts';
import { findUserById, toPublicUser, type PublicUser, type UserRow } from './user-record.server.ts';
import { isUuid } from '../utils/validation.ts';
import type { User, UserToken } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Staff accounts: what admins do to users (docs/domain-model.md#roles-and-permissions, docs/api.md) and what a
 * user does to their own account. Each write checks its rules, changes the
 * row and writes its activity-log row in one transaction; refusals throw API
 * error Responses (400/403/404/409).
 */
export interface Actor {
  id: string;
  role: Role;
  isActive?: boolean;
}
export interface WriteMeta {
  ip?: string | null;
}
/** A staff write on one invoice (a dispute, a credit note, a dunning hold, a write-off request): who, which invoice, the input, from where. */
export interface InvoiceCommand<Input> extends WriteMeta {
  actor: Actor;
  invoiceId: string;
  input: Input;
}
/** A staff write on one client (a KYC decision, an agreement, a ledger adjustment request): who, which client, the input, from where. */
export interface ClientCommand<Input> extends WriteMeta {
  actor: Actor;
  clientId: string;
  input: Input;
}

export const SET_PASSWORD_TOKEN_TTL_HOURS = 72;
const DUPLICATE_EMAIL = 'errors.auth.duplicateEmail';
const INVALID_LINK = 'errors.auth.invalidLink';

/** Domain functions validate again, so a caller that skipped the schema cannot write bad data. */

function duplicateEmail(): Response {
  return apiError(409, DUPLICATE_EMAIL, { errors: { email: [DUPLICATE_EMAIL] } });
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a one-time link in user_tokens is for: a new account's first password, or a forgotten one. */
export type UserTokenPurpose = 'set_password' | 'reset_password';

/**
 * A new one-time link token for the user, valid `ttlMinutes` (by the
 * database clock); only its SHA-256 is stored. Any older unspent token of the
 * same purpose ends now, so only the newest link works. Returns the token for
 * the email and how many older links it superseded.
 */
export async function issueUserToken(userId: string, purpose: UserTokenPurpose, ttlMinutes: number, transaction: Transaction): Promise<{ token: string; superseded: number }> {
  const { count: superseded } = await execute(
    `UPDATE user_tokens SET expires_at = now()
      WHERE user_id = :userId AND purpose = :purpose AND used_at IS NULL AND expires_at > now()`,
    { userId, purpose },
    { transaction },
  );
  const token = randomBytes(32).toString('base64url');
  await execute(
    `INSERT INTO user_tokens (user_id, purpose, token_hash, expires_at)
     VALUES (:userId, :purpose, :tokenHash, now() + make_interval(mins => :minutes))`,
    { userId, purpose, tokenHash: hashToken(token), minutes: ttlMinutes },
    { transaction },
  );
  return { token, superseded };
}

async function loadTarget(userId: string, transaction: Transaction): Promise<UserRow> {
  const user = isUuid(userId) ? await findUserById(userId, { transaction, forUpdate: true }) : null;
  if (!user) throw apiError(404, 'errors.auth.userNotFound');
  return user;
}

/** An admin may not touch a super_admin; only a super_admin may. */
function assertMayManage(actor: Actor, target: UserRow): void {
  if (target.role === 'super_admin' && !can(actor, 'grant:super_admin')) throw apiError(403, AUTH_ERRORS.forbidden);
}

/**
 * GET /api/admin/users: newest first; `q` searches email and names. Returns
 * the page and the full count (for X-Total-Count).
 */
export async function listUsers(options: { q?: string | null; limit?: number; offset?: number } = {}): Promise<{
  users: PublicUser[];
  total: number;
}> {
  const { limit, offset } = pageBounds(options);
  const q = options.q?.trim() ? `%${options.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = q ? `WHERE email ILIKE :q OR first_name ILIKE :q OR last_name ILIKE :q OR (first_name || ' ' || last_name) ILIKE :q` : '';
  const rows = await selectRows<UserRow>(`SELECT * FROM users ${where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`, { q, limit, offset });
  const count = await selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM users ${where}`, { q });
  return { users: rows.map(toPublicUser), total: count?.total ?? 0 };
}

/**
 * POST /api/admin/users (docs/api.md). With `password` the user must change it
 * at first sign-in; without, a one-time set-password link (72 h) is returned
 * for the email, and only the token's hash is stored.
 * Throws 400 (invalid input), 403 (not admin; super_admin by a non-super_admin), 409 (email taken).
 */
export async function createStaffUser(
  actor: Actor,
  input: { email: string; firstName: string; lastName: string; role: Role; password?: string | null },
  meta: WriteMeta = {},
): Promise<{ user: PublicUser; setPasswordLink: string | null }> {
  assertCan(actor, 'manage:users');
  const data = parseInput(createUserSchema, input);
  if (data.role === 'super_admin') assertCan(actor, 'grant:super_admin');
  const passwordHash = data.password ? await hashPassword(data.password) : null;
  try {
    const { user, token } = await inTransaction(async (transaction) => {
      const { rows } = await execute<UserRow>(
        `INSERT INTO users (email, first_name, last_name, role, password_hash, must_change_password)
         VALUES (:email, :firstName, :lastName, :role, :passwordHash, :mustChange)
         RETURNING *`,
        { ...data, passwordHash, mustChange: passwordHash !== null },
        { transaction },
      );
      const created = rows[0];
      const token = passwordHash ? null : (await issueUserToken(created.id, 'set_password', SET_PASSWORD_TOKEN_TTL_HOURS * 60, transaction)).token;
      await logActivity(
        {
          action: 'user_created',
          userId: actor.id,
          entityType: 'user',
          entityId: created.id,
          ipAddress: meta.ip,
          details: {
            email: created.email,
            firstName: created.first_name,
            lastName: created.last_name,
            role: created.role,
            passwordDelivery: token ? 'set_password_link' : 'initial_password',
          },
        },
        transaction,
      );
      return { user: created, token };
    });
    return {
      user: toPublicUser(user),
      setPasswordLink: token ? `${getEnv().APP_URL.replace(/\/+$/, '')}/set-password/${token}` : null,
    };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail();
    throw error;
  }
}

/**
 * PUT /api/admin/users/{userId}/role. Throws 403 (own role; super_admin
 * granted or touched by a non-super_admin; not admin), 404 (unknown user).
 * Takes effect on the user's next request (roles are read per request).
 */
export async function setUserRole(actor: Actor, userId: string, role: Role, meta: WriteMeta = {}): Promise<PublicUser> {
  assertCan(actor, 'manage:users');
  if (userId === actor.id) throw apiError(403, 'errors.auth.ownRole');
  if (role === 'super_admin') assertCan(actor, 'grant:super_admin');
  return updateManagedUser(userId, { column: 'role', value: role, current: (target) => target.role, allow: (target) => assertMayManage(actor, target) }, (target, transaction) =>
    logUserChange(actor, target, 'user_role_changed', { oldRole: target.role, newRole: role }, meta, transaction),
  );
}

/**
 * PUT /api/admin/users/{userId}/status. Deactivating ends all of the user's
 * sessions in the same transaction. Throws 403 (own flag; a super_admin by a
 * non-super_admin; not admin), 404.
 */
export async function setUserActive(actor: Actor, userId: string, isActive: boolean, meta: WriteMeta = {}): Promise<PublicUser> {
  assertCan(actor, 'manage:users');
  if (userId === actor.id) throw apiError(403, 'errors.auth.ownStatus');
  return updateManagedUser(
    userId,
    { column: 'is_active', value: isActive, current: (target) => target.is_active, allow: (target) => assertMayManage(actor, target) },
    async (target, transaction) => {
      const sessionsEnded = isActive ? 0 : await endSessionsOfUser(target.id, { transaction });
      await logUserChange(actor, target, 'user_status_changed', { oldIsActive: target.is_active, newIsActive: isActive, sessionsEnded }, meta, transaction);
    },
  );
}

/**
 * PUT /api/admin/users/{userId}/otp. Allowed on one's own row (docs/domain-model.md#roles-and-permissions); an
 * admin may not switch a super_admin's second factor off or on. Throws 403, 404.
 */
export async function setUserOtp(actor: Actor, userId: string, otpEnabled: boolean, meta: WriteMeta = {}): Promise<PublicUser> {
  assertCan(actor, 'manage:users');
  const current = (target: UserRow) => target.otp_enabled !== false;
  return updateManagedUser(
    userId,
    { column: 'otp_enabled', value: otpEnabled, current, allow: (target) => (target.id === actor.id ? undefined : assertMayManage(actor, target)) },
    (target, transaction) => logUserChange(actor, target, 'user_otp_changed', { oldOtpEnabled: current(target), newOtpEnabled: otpEnabled }, meta, transaction),
  );
}

/**
 * One column of a user an admin manages (role, active, second factor), in a
 * transaction on the locked row: `allow` refuses, a value the user already
 * has changes nothing and logs nothing, else the update and `log`'s rows.
 */
async function updateManagedUser<Value extends Role | boolean>(
  userId: string,
  change: { column: 'role' | 'is_active' | 'otp_enabled'; value: Value; current: (target: UserRow) => Value; allow: (target: UserRow) => void },
  log: (target: UserRow, transaction: Transaction) => Promise<void>,
): Promise<PublicUser> {
  const updated = await inTransaction(async (transaction) => {
    const target = await loadTarget(userId, transaction);
    change.allow(target);
    if (change.current(target) === change.value) return target;
    const { rows } = await execute<UserRow>(`UPDATE users SET ${change.column} = :value WHERE id = :id RETURNING *`, { id: target.id, value: change.value }, { transaction });
    await log(target, transaction);
    return rows[0];
  });
  return toPublicUser(updated);
}

/** The activity row of an admin's change to a user: who, which user (and their e-mail), what changed. */
async function logUserChange(actor: Actor, target: UserRow, action: string, details: Record<string, unknown>, meta: WriteMeta, transaction: Transaction) {
  await logActivity({ action, userId: actor.id, entityType: 'user', entityId: target.id, ipAddress: meta.ip, details: { email: target.email, ...details } }, transaction);
}

/**
 * POST /api/admin/users/{userId}/reset-totp: forgets the user's authenticator
 * (secret, pending secret, last step), so their next sign-in sets one up again
 * (needsTotpSetup), and ends all their sessions. The otpEnabled flag stays as
 * it is. Throws 403 (own account — an admin locked out of their own second
 * factor asks another admin; a super_admin by a non-super_admin; not admin), 404.
 */
export async function resetUserTotp(actor: Actor, userId: string, meta: WriteMeta = {}): Promise<PublicUser> {
  assertCan(actor, 'manage:users');
  if (userId === actor.id) throw apiError(403, 'errors.auth.ownAuthenticator');
  const updated = await inTransaction(async (transaction) => {
    const target = await loadTarget(userId, transaction);
    assertMayManage(actor, target);
    const { rows } = await execute<UserRow>(
      `UPDATE users
          SET totp_secret_encrypted = NULL, totp_pending_secret_encrypted = NULL,
              totp_confirmed_at = NULL, totp_last_step = NULL
        WHERE id = :id RETURNING *`,
      { id: target.id },
      { transaction },
    );
    const sessionsEnded = await endSessionsOfUser(target.id, { transaction });
    await logActivity(
      {
        action: 'user_totp_reset',
        userId: actor.id,
        entityType: 'user',
        entityId: target.id,
        ipAddress: meta.ip,
        details: { email: target.email, hadAuthenticator: toPublicUser(target).totpConfigured, sessionsEnded },
      },
      transaction,
    );
    return rows[0];
  });
  return toPublicUser(updated);
}

/** PUT /api/auth/profile. Throws 400 (docs/domain-model.md#validation messages per field), 409 (email taken). Returns the user. */
export async function updateProfile(user: Actor, input: { firstName: string; lastName: string; email: string }, meta: WriteMeta = {}): Promise<PublicUser> {
  const data = parseInput(profileSchema, input);
  try {
    const updated = await inTransaction(async (transaction) => {
      const current = await loadTarget(user.id, transaction);
      const before = { firstName: current.first_name, lastName: current.last_name, email: current.email };
      const changes = Object.fromEntries(
        (Object.keys(before) as Array<keyof typeof before>).filter((field) => before[field] !== data[field]).map((field) => [field, { old: before[field], new: data[field] }]),
      );
      if (Object.keys(changes).length === 0) return current;
      const { rows } = await execute<UserRow>(
        `UPDATE users SET first_name = :firstName, last_name = :lastName, email = :email WHERE id = :id RETURNING *`,
        { id: current.id, ...data },
        { transaction },
      );
      await logActivity({ action: 'profile_updated', userId: user.id, entityType: 'user', entityId: user.id, ipAddress: meta.ip, details: { changes } }, transaction);
      return rows[0];
    });
    return toPublicUser(updated);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail();
    throw error;
  }
}

/**
 * PUT /api/auth/change-password. A wrong current password is 400 with the
 * error on currentPassword (docs/api.md) and counts towards the sign-in throttle
 * (a stolen session must not become a password oracle). Ends the user's other
 * sessions (pass the current one as `exceptSessionId`). Throws 400, 429.
 */
export async function changePassword(
  user: Actor,
  input: { currentPassword: string; newPassword: string; confirmPassword: string },
  meta: WriteMeta & { exceptSessionId?: string } = {},
): Promise<{ success: true }> {
  const data = parseInput(changePasswordSchema, input);
  const current = await findUserById(user.id);
  if (!current) throw apiError(401, AUTH_ERRORS.unauthorized);
  const throttleKey = { kind: 'email' as const, value: current.email };
  await assertNotThrottled([throttleKey]);
  if (!(await verifyPassword(data.currentPassword, current.password_hash))) {
    await recordFailure([throttleKey]);
    throw apiError(400, AUTH_ERRORS.currentPasswordWrong, { errors: { currentPassword: [AUTH_ERRORS.currentPasswordWrong] } });
  }
  await resetThrottle([throttleKey]);
  const passwordHash = await hashPassword(data.newPassword);
  await inTransaction(async (transaction) => {
    await execute(`UPDATE users SET password_hash = :passwordHash, must_change_password = false WHERE id = :id`, { id: current.id, passwordHash }, { transaction });
    const sessionsEnded = await endSessionsOfUser(current.id, { except: meta.exceptSessionId, transaction });
    await logActivity({ action: 'password_changed', userId: current.id, entityType: 'user', entityId: current.id, ipAddress: meta.ip, details: { sessionsEnded } }, transaction);
  });
  return { success: true };
}

/**
 * For the /set-password/{token} and /reset-password/{token} loaders: whose
 * link it is, or null when unknown, of another purpose, used, superseded or expired.
 */
export async function findSetPasswordToken(token: string, purpose: UserTokenPurpose = 'set_password'): Promise<{ email: string; firstName: string; lastName: string } | null> {
  const row = await selectOne<RowOf<typeof User, 'email' | 'first_name' | 'last_name'>>(
    `SELECT u.email, u.first_name, u.last_name FROM user_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = :hash AND t.purpose = :purpose AND t.used_at IS NULL AND t.expires_at > now() AND u.is_active`,
    { hash: hashToken(token), purpose },
  );
  return row ? { email: row.email, firstName: row.first_name, lastName: row.last_name } : null;
}

/**
 * The /set-password/{token} and /reset-password/{token} actions: sets the
 * password once, burns the token (of `meta.purpose`, default set_password)
 * and ends every session of the user, so other devices are signed out.
 * Logged as 'password_set' or 'password_reset'. Returns whose password it was.
 * Throws 400 (schema messages, or 'This link is invalid or has expired' on `token`).
 */
export async function setPasswordWithToken(
  token: string,
  input: { newPassword: string; confirmPassword: string },
  meta: WriteMeta & { purpose?: UserTokenPurpose } = {},
): Promise<{ success: true; userId: string; email: string }> {
  const data = parseInput(setPasswordSchema, input);
  const purpose = meta.purpose ?? 'set_password';
  const passwordHash = await hashPassword(data.newPassword);
  return inTransaction(async (transaction) => {
    // Marking it used first (conditionally) makes two parallel submits use it once.
    const { rows } = await execute<RowOf<typeof UserToken, 'user_id'> & RowOf<typeof User, 'email'>>(
      `UPDATE user_tokens t SET used_at = now()
        FROM users u
        WHERE u.id = t.user_id AND u.is_active
          AND t.token_hash = :hash AND t.purpose = :purpose
          AND t.used_at IS NULL AND t.expires_at > now()
        RETURNING t.user_id, u.email`,
      { hash: hashToken(token), purpose },
      { transaction },
    );
    const owner = rows[0];
    if (!owner) throw apiError(400, INVALID_LINK, { errors: { token: [INVALID_LINK] } });
    await execute(`UPDATE users SET password_hash = :passwordHash, must_change_password = false WHERE id = :id`, { id: owner.user_id, passwordHash }, { transaction });
    const sessionsEnded = await endSessionsOfUser(owner.user_id, { transaction });
    await logActivity(
      {
        action: purpose === 'reset_password' ? 'password_reset' : 'password_set',
        userId: owner.user_id,
        entityType: 'user',
        entityId: owner.user_id,
        ipAddress: meta.ip,
        details: { sessionsEnded },
      },
      transaction,
    );
    return { success: true as const, userId: owner.user_id, email: owner.email };
  });
}

/** For the worker's cleanup job: tokens past their expiry or used over a week ago. */
export async function purgeExpiredUserTokens(): Promise<number> {
  const { count } = await execute(`DELETE FROM user_tokens WHERE expires_at <= now() OR used_at <= now() - interval '7 days'`);
  return count;
}
