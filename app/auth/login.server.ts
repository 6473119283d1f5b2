import type { Transaction } from 'sequelize';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { hashPassword, verifyPassword } from './password.server.ts';
import { apiError, zodRefusal } from '../utils/api.server.ts';
import { logActivity } from '../activity-log.server.ts';
import { decryptSecret, encryptSecret } from './crypto.server.ts';
import { execute, inTransaction } from '../db.server.ts';
import { AUTH_ERRORS, loginSchema, verifyOtpSchema, verifyTotpSetupSchema } from './schemas.ts';
import { clearSessionCookie, createSessionCookie, deleteSessionRow, getSession, type FinflowSession } from './session.server.ts';
import { assertNotThrottled, recordFailure, resetThrottle, type ThrottleKey } from './throttle.server.ts';
import { generateTotpSecret, matchTotpStep, totpQrCode } from './totp.server.ts';
import { findUserByEmail, findUserById, type UserRow } from './user-record.server.ts';

/**
 * Sign-in (docs/decisions/003-sessions-and-second-factor.md, docs/screens.md): password, then the authenticator code, or
 * first the authenticator setup. Each step is one function that a thin API
 * route or page action calls; each returns the response data and the headers
 * to send (Set-Cookie when the session changed) and throws an API error
 * Response (`{message}` with 400/401/409/429) when the step is refused.
 */

export interface RequestMeta {
  /** The client's address (from the load context); throttling by IP is skipped without it. */
  ip?: string | null;
}

export interface AuthResult<T> {
  data: T;
  headers: Record<string, string>;
}

export interface LoginResponse {
  requiresTotp: boolean;
  needsTotpSetup: boolean;
}

const INVALID_CREDENTIALS = 'errors.auth.invalidCredentials';
const SIGN_IN_EXPIRED = 'errors.auth.signInExpired';
export const PENDING_SIGN_IN_TTL_MS = 10 * 60 * 1000;

class InvalidCredentials extends Error {}

/**
 * Unknown emails are checked against this hash so they cost the same time
 * as known ones and the response time does not tell which emails exist.
 */
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword('finflow-dummy-password-never-valid'));

let authenticator: Authenticator<UserRow> | undefined;

function getAuthenticator(): Authenticator<UserRow> {
  if (!authenticator) {
    authenticator = new Authenticator<UserRow>();
    authenticator.use(
      new FormStrategy<UserRow>(async ({ form }) => {
        const email = String(form.get('email') ?? '')
          .trim()
          .toLowerCase();
        const password = String(form.get('password') ?? '');
        const user = await findUserByEmail(email);
        const passwordOk = await verifyPassword(password, user?.password_hash ?? (await getDummyHash()));
        // One answer for every refusal: unknown, wrong, inactive, no password set yet.
        if (!user || !user.password_hash || !passwordOk || !user.is_active) throw new InvalidCredentials();
        return user;
      }),
      'password',
    );
  }
  return authenticator;
}

/** The credentials from the body: JSON (the API) or a form post (the no-JS page). Reads a clone. */
async function readCredentials(request: Request): Promise<unknown> {
  const type = (request.headers.get('Content-Type') ?? '').toLowerCase();
  try {
    if (type.includes('json')) return await request.clone().json();
    if (type.includes('form')) return Object.fromEntries(await request.clone().formData());
  } catch {
    // Malformed bodies end as missing credentials below.
  }
  return {};
}

function userAgentOf(request: Request): string | null {
  return request.headers.get('User-Agent');
}

function throttleKeys(kind: 'email' | 'otp', value: string, meta: RequestMeta): ThrottleKey[] {
  const keys: ThrottleKey[] = [{ kind, value }];
  if (meta.ip) keys.push({ kind: 'ip', value: meta.ip });
  return keys;
}

/**
 * The end of every successful sign-in, in the caller's transaction: a new
 * session id (the old row is deleted, against fixation), last_login_at, and
 * the 'user_login' activity row. Returns the Set-Cookie value.
 */
async function completeSignIn(transaction: Transaction, args: { user: UserRow; previousSessionId: string; request: Request; meta: RequestMeta; method: string }): Promise<string> {
  const { count } = await execute(`UPDATE users SET last_login_at = now() WHERE id = :id AND is_active`, { id: args.user.id }, { transaction });
  if (count === 0) throw apiError(401, INVALID_CREDENTIALS);
  await logActivity(
    {
      action: 'user_login',
      userId: args.user.id,
      entityType: 'user',
      entityId: args.user.id,
      ipAddress: args.meta.ip,
      details: { method: args.method, userAgent: userAgentOf(args.request)?.slice(0, 300) ?? null },
    },
    transaction,
  );
  await deleteSessionRow(args.previousSessionId, transaction);
  const { setCookie } = await createSessionCookie({ userId: args.user.id }, { ip: args.meta.ip, userAgent: userAgentOf(args.request), transaction });
  return setCookie;
}

/**
 * Step 1, POST /api/auth/login. `credentials` as parsed by the route (or read
 * from the body when omitted). Returns which second step follows; with
 * otpEnabled explicitly false the user is signed in at once.
 * Throws 400 'Email and password are required', 401 'Invalid email or password',
 * 429 'Too many attempts. Try again later.' (with Retry-After).
 */
export async function startLogin(request: Request, credentials?: { email?: unknown; password?: unknown }, meta: RequestMeta = {}): Promise<AuthResult<LoginResponse>> {
  const parsed = loginSchema.safeParse(credentials ?? (await readCredentials(request)));
  if (!parsed.success) throw zodRefusal(parsed.error);
  const { email, password } = parsed.data;

  const keys = throttleKeys('email', email, meta);
  await assertNotThrottled(keys);

  // remix-auth 4 reads a form body, so the (possibly JSON) credentials are re-posted as one.
  const form = new FormData();
  form.set('email', email);
  form.set('password', password);
  const formRequest = new Request(request.url, { method: 'POST', body: form });

  let user: UserRow;
  try {
    user = await getAuthenticator().authenticate('password', formRequest);
  } catch (error) {
    if (!(error instanceof InvalidCredentials)) throw error;
    await recordFailure(keys);
    throw apiError(401, INVALID_CREDENTIALS);
  }
  await resetThrottle([{ kind: 'email', value: email }]);

  const previous = await getSession(request);
  if (user.otp_enabled === false) {
    const setCookie = await inTransaction((transaction) => completeSignIn(transaction, { user, previousSessionId: previous.id, request, meta, method: 'password' }));
    return { data: { requiresTotp: false, needsTotpSetup: false }, headers: { 'Set-Cookie': setCookie } };
  }

  const hasTotp = Boolean(user.totp_confirmed_at && user.totp_secret_encrypted);
  // A new id for the half-signed-in state too: it grants the TOTP setup step.
  const setCookie = await inTransaction(async (transaction) => {
    await deleteSessionRow(previous.id, transaction);
    const created = await createSessionCookie({ pendingUserId: user.id, pendingStartedAt: Date.now() }, { ip: meta.ip, userAgent: userAgentOf(request), transaction });
    return created.setCookie;
  });
  return { data: { requiresTotp: hasTotp, needsTotpSetup: !hasTotp }, headers: { 'Set-Cookie': setCookie } };
}

type SecondFactorContext = { mode: 'pending'; session: FinflowSession; user: UserRow } | { mode: 'signed-in'; session: FinflowSession; user: UserRow };

/** The user between password and code, or 401 when there is none or it is older than 10 minutes. */
async function requirePendingSignIn(session: FinflowSession): Promise<UserRow> {
  const pendingUserId = session.get('pendingUserId');
  const startedAt = session.get('pendingStartedAt');
  if (!pendingUserId || typeof startedAt !== 'number') throw apiError(401, AUTH_ERRORS.unauthorized);
  if (Date.now() - startedAt > PENDING_SIGN_IN_TTL_MS) throw apiError(401, SIGN_IN_EXPIRED);
  const user = await findUserById(pendingUserId);
  if (!user || !user.is_active) throw apiError(401, SIGN_IN_EXPIRED);
  return user;
}

async function setupContext(request: Request): Promise<SecondFactorContext> {
  const session = await getSession(request);
  const userId = session.get('userId');
  if (userId) {
    const user = await findUserById(userId);
    if (!user || !user.is_active) throw apiError(401, AUTH_ERRORS.unauthorized);
    return { mode: 'signed-in', session, user };
  }
  const user = await requirePendingSignIn(session);
  // Knowing the password must not be enough to replace a working authenticator.
  if (user.totp_confirmed_at && user.totp_secret_encrypted) throw apiError(409, 'errors.auth.totpConfigured');
  return { mode: 'pending', session, user };
}

/**
 * POST /api/auth/totp/setup: a new secret, kept encrypted as pending until a
 * code from it verifies. Allowed during a sign-in that needs setup, or for a
 * signed-in user re-enrolling. Returns `{ qrCode, manualKey }`.
 * Throws 401 (no or expired pending sign-in), 409 (already configured, pending only).
 */
export async function setupTotp(request: Request): Promise<AuthResult<{ qrCode: string; manualKey: string }>> {
  const { user } = await setupContext(request);
  const secret = generateTotpSecret();
  await execute(`UPDATE users SET totp_pending_secret_encrypted = :encrypted WHERE id = :id`, {
    id: user.id,
    encrypted: encryptSecret(secret),
  });
  return { data: { qrCode: await totpQrCode(user.email, secret), manualKey: secret }, headers: {} };
}

class CodeRejected extends Error {}

/**
 * POST /api/auth/totp/verify-setup `{ totpCode }`: confirms the pending secret
 * and, during sign-in, completes it (new session cookie). Returns `{ success: true }`.
 * Throws 400 'Authenticator code is required' | 'Invalid TOTP code', 401, 409
 * (no setup started), 429.
 */
export async function verifyTotpSetup(request: Request, input: { totpCode?: unknown }, meta: RequestMeta = {}): Promise<AuthResult<{ success: true }>> {
  const parsed = verifyTotpSetupSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const context = await setupContext(request);
  const { user } = context;
  const keys = throttleKeys('otp', user.id, meta);
  await assertNotThrottled(keys);

  const pending = user.totp_pending_secret_encrypted;
  if (!pending) throw apiError(409, 'errors.auth.totpSetupNotStarted');
  const step = matchTotpStep(parsed.data.totpCode, decryptSecret(pending));
  if (step === null) {
    await recordFailure(keys);
    throw apiError(400, AUTH_ERRORS.invalidTotpCode, { errors: { totpCode: [AUTH_ERRORS.invalidTotpCode] } });
  }

  const setCookie = await inTransaction(async (transaction) => {
    // The pending secret must still be the one checked (a parallel setup may have replaced it).
    const { count } = await execute(
      `UPDATE users
          SET totp_secret_encrypted = totp_pending_secret_encrypted,
              totp_pending_secret_encrypted = NULL,
              totp_confirmed_at = now(),
              totp_last_step = GREATEST(COALESCE(totp_last_step, :step), :step)
        WHERE id = :id AND totp_pending_secret_encrypted = :pending`,
      { id: user.id, step, pending },
      { transaction },
    );
    if (count === 0) throw new CodeRejected();
    await logActivity({ action: 'totp_configured', userId: user.id, entityType: 'user', entityId: user.id, ipAddress: meta.ip, details: {} }, transaction);
    if (context.mode === 'signed-in') return null;
    return completeSignIn(transaction, { user, previousSessionId: context.session.id, request, meta, method: 'password+totp_setup' });
  }).catch((error) => {
    if (error instanceof CodeRejected) throw apiError(400, AUTH_ERRORS.invalidTotpCode, { errors: { totpCode: [AUTH_ERRORS.invalidTotpCode] } });
    throw error;
  });
  await resetThrottle([{ kind: 'otp', value: user.id }]);
  return { data: { success: true }, headers: setCookie ? { 'Set-Cookie': setCookie } : {} };
}

/**
 * POST /api/auth/verify-otp `{ otpCode }`: the second factor for a user with
 * a confirmed authenticator; completes sign-in (new session cookie). Each
 * code's time step is accepted once. Returns `{ success: true }`.
 * Throws 400 'Authenticator code is required' | 'Invalid authenticator code'
 * (wrong, malformed or replayed), 401 (no or expired pending sign-in), 409
 * (no authenticator configured), 429.
 */
export async function verifyOtp(request: Request, input: { otpCode?: unknown }, meta: RequestMeta = {}): Promise<AuthResult<{ success: true }>> {
  const parsed = verifyOtpSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const session = await getSession(request);
  const user = await requirePendingSignIn(session);
  if (!user.totp_confirmed_at || !user.totp_secret_encrypted) throw apiError(409, 'errors.auth.totpNotConfigured');
  const keys = throttleKeys('otp', user.id, meta);
  await assertNotThrottled(keys);

  const step = matchTotpStep(parsed.data.otpCode, decryptSecret(user.totp_secret_encrypted));
  if (step === null) {
    await recordFailure(keys);
    throw apiError(400, AUTH_ERRORS.invalidCode, { errors: { otpCode: [AUTH_ERRORS.invalidCode] } });
  }

  let setCookie: string;
  try {
    setCookie = await inTransaction(async (transaction) => {
      // Atomic replay guard: only a step later than the last accepted one passes.
      const { count } = await execute(
        `UPDATE users SET totp_last_step = :step
          WHERE id = :id AND (totp_last_step IS NULL OR totp_last_step < :step)`,
        { id: user.id, step },
        { transaction },
      );
      if (count === 0) throw new CodeRejected();
      return completeSignIn(transaction, { user, previousSessionId: session.id, request, meta, method: 'password+totp' });
    });
  } catch (error) {
    if (!(error instanceof CodeRejected)) throw error;
    await recordFailure(keys);
    throw apiError(400, AUTH_ERRORS.invalidCode, { errors: { otpCode: [AUTH_ERRORS.invalidCode] } });
  }
  await resetThrottle([{ kind: 'otp', value: user.id }]);
  return { data: { success: true }, headers: { 'Set-Cookie': setCookie } };
}

/**
 * POST /api/auth/logout: deletes the session row and clears the cookie; logs
 * 'user_logout' when a user was signed in. Succeeds without a session too
 * (docs/api.md). Returns `{ success: true }`.
 */
export async function logout(request: Request, meta: RequestMeta = {}): Promise<AuthResult<{ success: true }>> {
  const session = await getSession(request);
  const userId = session.get('userId');
  await inTransaction(async (transaction) => {
    await deleteSessionRow(session.id, transaction);
    if (userId) {
      await logActivity({ action: 'user_logout', userId, entityType: 'user', entityId: userId, ipAddress: meta.ip, details: {} }, transaction);
    }
  });
  return { data: { success: true }, headers: { 'Set-Cookie': await clearSessionCookie() } };
}

/** The client address the server put into the Remix load context (`getLoadContext: req => ({ clientIp: req.ip })`). */
export function clientIp(context: unknown): string | null {
  const value = (context as { clientIp?: unknown } | null | undefined)?.clientIp;
  return typeof value === 'string' && value !== '' ? value : null;
}
