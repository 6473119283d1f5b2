import { redirect } from '@remix-run/node';
import { apiError } from '../utils/api.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { AUTH_ERRORS, type Role } from './schemas.ts';
import { selectOne } from '../db.server.ts';
import { destroySession, getSession, sessionIdOf } from './session.server.ts';
import { findUserById, toPublicUser, type PublicUser, type UserRow } from './user-record.server.ts';

/**
 * Roles and what each may do (docs/domain-model.md#roles-and-permissions). Each role has everything of the
 * roles below it; the table lists only what a role adds. The server checks
 * these on every call; the UI merely hides what would be refused.
 */
export const ROLE_RANK: Record<Role, number> = { user: 0, manager: 1, admin: 2, super_admin: 3 };

const ADDED_BY_ROLE = {
  // The daily queue.
  user: [
    'read:all',
    'create:client',
    'update:client',
    'create:customer',
    'update:customer',
    'create:invoice',
    'create:document',
    'create:payment',
    'create:credit_limit',
    'create:task',
    'work:task',
    'assess:risk',
  ],
  // Decisions.
  manager: [
    'verify:invoice',
    'approve:invoice',
    'finance:invoice',
    'reject:invoice',
    // An applicant's KYC: approve, reject, or ask for more documents (app/onboarding/kyc-decision.server.ts).
    'decide:kyc',
    'decide:credit_limit',
    'adjust:risk',
    'confirm:payment',
    'sign:document',
    // Managers run workflows, starting one by hand included (the routes under /api/workflow-instances too).
    'start:workflow',
    'run:workflow',
    'edit:workflow',
    'edit:email_template',
    'edit:email_campaign',
    'send:einvoice',
    // Manual adjustments of a client's account; above the book's four-eyes amount another manager approves (app/ledger/adjustments.server.ts).
    'adjust:ledger',
    // Factoring agreements: create, revise, send for signature, mark signed (app/agreements/agreements.server.ts).
    'manage:agreement',
    // Put an invoice's reminders to the debtor on hold, or lift the hold (app/dunning/dunning.server.ts).
    'hold:dunning',
    // Recourse: charge a recourse invoice back early; ask for a non-recourse invoice's write-off (app/recourse/).
    'charge_back:invoice',
    'request:write_off',
    // Dilution: a credit note on a purchased invoice, and the outcome of a debtor's dispute (app/dilution/).
    'record:credit_note',
    'resolve:dispute',
    // The debtor's side: confirmation requests and its links (resend, revoke), disputes opened on the debtor's behalf (app/debtors).
    'manage:debtor_links',
    'dispute:invoice',
  ],
  // export:data downloads the whole book; manage:backups makes and downloads database backups.
  // decide:write_off approves or rejects a write-off another person asked for (app/recourse/write-off.server.ts).
  admin: ['manage:users', 'manage:integrations', 'export:data', 'manage:backups', 'manage:book_settings', 'decide:write_off'],
  super_admin: ['grant:super_admin'],
} as const;

export type Permission = (typeof ADDED_BY_ROLE)[Role][number];

function permissionsUpTo(role: Role): ReadonlySet<Permission> {
  const roles = (Object.keys(ADDED_BY_ROLE) as Role[]).filter((r) => ROLE_RANK[r] <= ROLE_RANK[role]);
  return new Set<Permission>(roles.flatMap((r) => ADDED_BY_ROLE[r]));
}

/** The full permission set of each role, derived from the table above. */
export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  user: permissionsUpTo('user'),
  manager: permissionsUpTo('manager'),
  admin: permissionsUpTo('admin'),
  super_admin: permissionsUpTo('super_admin'),
};

export const ALL_PERMISSIONS: readonly Permission[] = [...ROLE_PERMISSIONS.super_admin];

export function can(user: { role: Role; isActive?: boolean } | null | undefined, permission: Permission): boolean {
  if (!user || user.isActive === false) return false;
  return ROLE_PERMISSIONS[user.role]?.has(permission) ?? false;
}

/** For domain modules: 403 unless `actor` may. */
export function assertCan(actor: { role: Role; isActive?: boolean }, permission: Permission): void {
  if (!can(actor, permission)) throw apiError(403, AUTH_ERRORS.forbidden);
}

/**
 * The signed-in user, read fresh from the database for every request (once
 * for all the loaders of a page), so a deactivation or role change applies on
 * the next request. A pending sign-in
 * (password passed, authenticator code not yet) is not signed in. A session of
 * a deactivated or deleted user is destroyed.
 */
export function getSignedInUser(request: Request): Promise<PublicUser | null> {
  // A page's loaders (the frame's and the page's) run at once on one request and each asks: one read serves them.
  // Only reads share it: an action may change the very user it reads.
  if (request.method !== 'GET' && request.method !== 'HEAD') return readSignedInUser(request);
  let signedIn = signedInOfRequest.get(request);
  if (!signedIn) {
    signedIn = readSignedInUser(request);
    signedInOfRequest.set(request, signedIn);
  }
  return signedIn;
}

const signedInOfRequest = new WeakMap<Request, Promise<PublicUser | null>>();

async function readSignedInUser(request: Request): Promise<PublicUser | null> {
  // Every request asks this: a live session of an active user is one query.
  const sessionId = await sessionIdOf(request);
  if (!sessionId) return null;
  const signedIn = await selectOne<UserRow>(`SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = :sessionId AND s.expires_at > now() AND u.is_active`, {
    sessionId,
  });
  if (signedIn) return toPublicUser(signedIn);
  // Otherwise the long way, which also ends the session of a deactivated user.
  const session = await getSession(request);
  const userId = session.get('userId');
  if (!userId) return null;
  const row = await findUserById(userId);
  if (!row || !row.is_active) {
    await destroySession(session);
    return null;
  }
  return toPublicUser(row);
}

interface RequireOptions {
  /** JSON errors (API) or redirect / plain 403 (pages). Default: whether the path starts with /api/. */
  api?: boolean;
}

function isApiRequest(request: Request, options: RequireOptions): boolean {
  if (options.api !== undefined) return options.api;
  return new URL(request.url).pathname.startsWith('/api/');
}

/** The signed-in user, or throws: API → 401 `{message:'Unauthorized'}`; page → redirect to '/' (the login page). */
export async function requireUser(request: Request, options: RequireOptions = {}): Promise<PublicUser> {
  const user = await getSignedInUser(request);
  if (user) return user;
  if (isApiRequest(request, options)) throw apiError(401, AUTH_ERRORS.unauthorized);
  // A page visit shows the login page; a form sent from an expired session says why first (docs/screens.md).
  if (request.method === 'GET' || request.method === 'HEAD') throw redirect('/');
  // Straight to the login page at '/' (where /api/login leads): through /api/login the root loader
  // of the intermediate client-side navigation would consume the toast before the page shows it.
  throw await redirectWithToast('/', { title: 'unauthorized.title', description: 'unauthorized.description', variant: 'destructive' });
}

/** requireUser, then 403 (`{message:'Forbidden'}` for the API) unless the user's role has `permission`. */
export async function requirePermission(request: Request, permission: Permission, options: RequireOptions = {}): Promise<PublicUser> {
  const user = await requireUser(request, options);
  if (can(user, permission)) return user;
  throw isApiRequest(request, options) ? apiError(403, AUTH_ERRORS.forbidden) : new Response('Forbidden', { status: 403, statusText: 'Forbidden' });
}
