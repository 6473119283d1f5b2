import type { Transaction } from 'sequelize';
import type { Role } from './schemas.ts';
import { selectOne } from '../db.server.ts';
import { isUuid } from '../utils/validation.ts';
import type { User } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/** A users row as the auth modules read it (snake_case, straight from SQL). */
export type UserRow = RowOf<typeof User>;

/**
 * A user's display name in SQL, for the user joined as `alias`: first and last
 * name, NULL when both are blank (or no user is joined), so the caller chooses
 * the fallback (the email, 'system').
 */
export function sqlUserName(alias: string): string {
  return `nullif(btrim(concat_ws(' ', ${alias}.first_name, ${alias}.last_name)), '')`;
}

/**
 * The user as the API and pages see it (docs/domain-model.md plus `id` per docs/api.md):
 * no hashes, no secrets. `otpEnabled` is a plain boolean: NULL in the
 * database means on.
 */
export interface PublicUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  isActive: boolean;
  otpEnabled: boolean;
  /** An authenticator app has been set up and confirmed (profile: "TOTP enabled"). */
  totpConfigured: boolean;
  mustChangePassword: boolean;
  lastLoginAt: Date | null;
  createdAt: Date;
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    isActive: row.is_active,
    otpEnabled: row.otp_enabled !== false,
    totpConfigured: row.totp_confirmed_at !== null && row.totp_secret_encrypted !== null,
    mustChangePassword: row.must_change_password,
    lastLoginAt: row.last_login_at,
    createdAt: row.created_at,
  };
}

export async function findUserById(id: string, options: { transaction?: Transaction; forUpdate?: boolean } = {}): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  return selectOne<UserRow>(`SELECT * FROM users WHERE id = :id${options.forUpdate ? ' FOR UPDATE' : ''}`, { id }, options);
}

export async function findUserByEmail(email: string): Promise<UserRow | null> {
  return selectOne<UserRow>(`SELECT * FROM users WHERE email = :email`, { email: email.trim().toLowerCase() });
}
