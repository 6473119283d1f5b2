import { sendJob } from '../jobs/boss.server.ts';
import { logActivity } from '../activity-log.server.ts';
import { inTransaction, selectOne } from '../db.server.ts';
import { getEnv } from '../env.server.ts';
import { parseInput } from '../utils/api.server.ts';
import { forgotPasswordSchema, resetPasswordSchema, setPasswordSchema } from './schemas.ts';
import { assertNotThrottled, recordFailure, resetThrottle, type ThrottleKey } from './throttle.server.ts';
import { sendPasswordResetLink } from './user-mail.server.ts';
import { toPublicUser, type UserRow } from './user-record.server.ts';
import { findSetPasswordToken, issueUserToken, setPasswordWithToken, type WriteMeta } from './users.server.ts';

/**
 * A forgotten password: a public request by email, answered the same whether
 * the address belongs to anyone, and a one-time link (user_tokens, purpose
 * reset_password, one hour) that sets a new password and signs the user out
 * everywhere. The request only counts towards the throttle and queues a job;
 * the worker looks the address up and sends the mail (worker/jobs/password-reset.ts),
 * so neither the answer nor its timing tells which addresses have accounts.
 */
export const RESET_LINK_TTL_MINUTES = 60;
export const RESET_QUEUE = 'password-reset' as const;
export const RESET_REQUESTED = 'If an account with this email exists, we have sent it a link to set a new password.';
export const TOO_MANY_RESET_ATTEMPTS = 'errors.auth.tooManyResets';

function ipKeys(ip: string | null | undefined): ThrottleKey[] {
  return ip ? [{ kind: 'resetIp', value: ip }] : [];
}

/**
 * POST /api/auth/forgot-password and the /forgot-password form. Every valid
 * request counts per address and per client address (429 past the limit, with
 * Retry-After); then the same answer, whoever owns the address.
 * Throws 400 (invalid email, on `email`), 429.
 */
export async function requestPasswordReset(input: { email?: unknown }, meta: WriteMeta = {}): Promise<{ message: string }> {
  const { email } = parseInput(forgotPasswordSchema, input);
  const keys: ThrottleKey[] = [{ kind: 'resetEmail', value: email }, ...ipKeys(meta.ip)];
  await assertNotThrottled(keys, TOO_MANY_RESET_ATTEMPTS);
  await recordFailure(keys);
  await sendJob(RESET_QUEUE, { email, ip: meta.ip ?? null });
  return { message: RESET_REQUESTED };
}

/**
 * The worker's half of a request: for an active user with this address, a new
 * link (older unspent ones stop working), logged as 'password_reset_requested',
 * then the mail. Unknown or inactive addresses get nothing. A retried job
 * issues a fresh link, so only the last mail's link works. Returns whether a mail went out.
 */
export async function sendPasswordReset(request: { email: string; ip: string | null }): Promise<boolean> {
  const issued = await inTransaction(async (transaction) => {
    // Locked, so two requests at once leave exactly one working link.
    const user = await selectOne<UserRow>(`SELECT * FROM users WHERE email = :email AND is_active FOR UPDATE`, { email: request.email }, { transaction });
    if (!user) return null;
    const { token, superseded } = await issueUserToken(user.id, 'reset_password', RESET_LINK_TTL_MINUTES, transaction);
    await logActivity(
      {
        action: 'password_reset_requested',
        userId: user.id,
        entityType: 'user',
        entityId: user.id,
        ipAddress: request.ip,
        details: { supersededLinks: superseded },
      },
      transaction,
    );
    return { user: toPublicUser(user), token };
  });
  if (!issued) return false;
  await sendPasswordResetLink(issued.user, `${getEnv().APP_URL.replace(/\/+$/, '')}/reset-password/${issued.token}`);
  return true;
}

/** For the /reset-password/{token} loader: the link's owner, or null when unknown, used, superseded or expired. */
export function findPasswordResetLink(token: string) {
  return findSetPasswordToken(token, 'reset_password');
}

/**
 * The /reset-password/{token} form: sets the new password, spends the link,
 * ends every session of the user and logs 'password_reset'. Failed links count
 * per client address, so links cannot be guessed at speed. The sign-in
 * throttle of the address starts from zero (the owner proved their mailbox).
 * Throws 400 (password rules per field; 'This link is invalid or has expired' on `token`), 429.
 */
export async function completePasswordReset(token: string, input: { newPassword?: unknown; confirmPassword?: unknown }, meta: WriteMeta = {}): Promise<{ success: true }> {
  const passwords = parseInput(setPasswordSchema, input);
  await assertNotThrottled(ipKeys(meta.ip), TOO_MANY_RESET_ATTEMPTS);
  let email: string;
  try {
    ({ email } = await setPasswordWithToken(token, passwords, { ip: meta.ip, purpose: 'reset_password' }));
  } catch (error) {
    // The passwords were valid, so a 400 here is the link.
    if (error instanceof Response && error.status === 400) await recordFailure(ipKeys(meta.ip));
    throw error;
  }
  await resetThrottle([{ kind: 'email', value: email }]);
  return { success: true };
}

/** POST /api/auth/reset-password {token, password}: the same as the page, for an API client. Throws 400, 429. */
export async function resetPasswordWithToken(input: { token?: unknown; password?: unknown }, meta: WriteMeta = {}): Promise<{ success: true }> {
  const { token, password } = parseInput(resetPasswordSchema, input);
  return completePasswordReset(token, { newPassword: password, confirmPassword: password }, meta);
}
