import * as z from 'zod';
import { USER_ROLES } from '../../db/models/enums.ts';
import { plainText } from '../utils/validation.ts';

/**
 * Payloads of the sign-in, profile and user-administration calls (docs/domain-model.md,
 * docs/domain-model.md#validation, docs/api.md). Shared by the browser forms (conform) and the API, so this file
 * must not import server-only code. Messages are refusal codes
 * (docs/decisions/013-error-codes.md).
 */
export const ROLES = USER_ROLES;
export type Role = (typeof ROLES)[number];

export const AUTH_ERRORS = {
  unauthorized: 'errors.auth.unauthorized',
  forbidden: 'errors.auth.forbidden',
  credentialsRequired: 'errors.auth.credentialsRequired',
  codeRequired: 'errors.auth.codeRequired',
  invalidCode: 'errors.auth.invalidCode',
  invalidTotpCode: 'errors.auth.invalidTotpCode',
  firstNameRequired: 'errors.auth.firstNameRequired',
  lastNameRequired: 'errors.auth.lastNameRequired',
  invalidEmail: 'errors.auth.invalidEmail',
  currentPasswordRequired: 'errors.auth.currentPasswordRequired',
  currentPasswordWrong: 'errors.auth.currentPasswordWrong',
  newPasswordTooShort: 'errors.auth.newPasswordTooShort',
  confirmPasswordRequired: 'errors.auth.confirmPasswordRequired',
  passwordsDoNotMatch: 'errors.auth.passwordsDoNotMatch',
  tooLong: 'errors.auth.tooLong',
  invalidRole: 'errors.auth.invalidRole',
  invalidEmailAddress: 'errors.auth.invalidEmailAddress',
  tokenRequired: 'errors.auth.tokenRequired',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
// scrypt hashes any length, but a cap keeps megabyte "passwords" out.
const PASSWORD_MAX_LENGTH = 1024;
/** Any characters but control characters and broken Unicode, which no keyboard types and no hash should see. */
const password = (message: string, min = 1) => plainText(z.string().min(min, message).max(PASSWORD_MAX_LENGTH));
export const CODE_LENGTH = 6;

/** Missing, null and non-strings read as '' so the "required" message wins. */
const text = (message: string) => z.preprocess((value) => (typeof value === 'string' ? value : value == null ? '' : value), z.string(message));

const requiredText = (message: string, max = 255) => text(message).pipe(plainText(z.string().trim().min(1, message).max(max, AUTH_ERRORS.tooLong)));

/** Lower-cased because users.email must be (the unique index is on the lower-case value). */
const emailField = (message: string) => text(message).pipe(plainText(z.string().trim().toLowerCase().max(255, message)).pipe(z.email(message)));

// --- sign-in -------------------------------------------------------------

export const loginSchema = z.object({
  email: text(AUTH_ERRORS.credentialsRequired).pipe(plainText(z.string().trim().toLowerCase().min(1, AUTH_ERRORS.credentialsRequired).max(255))),
  password: text(AUTH_ERRORS.credentialsRequired).pipe(password(AUTH_ERRORS.credentialsRequired)),
});

const code = (wrongMessage: string) =>
  text(AUTH_ERRORS.codeRequired).pipe(
    z
      .string()
      .trim()
      .min(1, { message: AUTH_ERRORS.codeRequired, abort: true })
      .regex(/^\d{6}$/, wrongMessage),
  );

/** POST /api/auth/verify-otp */
export const verifyOtpSchema = z.object({ otpCode: code(AUTH_ERRORS.invalidCode) });
/** POST /api/auth/totp/verify-setup */
export const verifyTotpSetupSchema = z.object({ totpCode: code(AUTH_ERRORS.invalidTotpCode) });

// --- own account ---------------------------------------------------------

/** PUT /api/auth/profile */
export const profileSchema = z.object({
  firstName: requiredText(AUTH_ERRORS.firstNameRequired),
  lastName: requiredText(AUTH_ERRORS.lastNameRequired),
  email: emailField(AUTH_ERRORS.invalidEmail),
});

/** The rules of every new password: change, set-password link, reset link. */
const newPasswordField = text(AUTH_ERRORS.newPasswordTooShort).pipe(password(AUTH_ERRORS.newPasswordTooShort, PASSWORD_MIN_LENGTH));

/** A new password and its confirmation; the mismatch lands on confirmPassword (docs/domain-model.md#validation). */
const newPasswordFields = {
  newPassword: newPasswordField,
  confirmPassword: text(AUTH_ERRORS.confirmPasswordRequired).pipe(password(AUTH_ERRORS.confirmPasswordRequired)),
};
function confirmationMatches(value: { newPassword: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  if (value.confirmPassword && value.newPassword !== value.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: AUTH_ERRORS.passwordsDoNotMatch });
  }
}

/** PUT /api/auth/change-password */
export const changePasswordSchema = z
  .object({
    currentPassword: text(AUTH_ERRORS.currentPasswordRequired).pipe(password(AUTH_ERRORS.currentPasswordRequired)),
    ...newPasswordFields,
  })
  .superRefine(confirmationMatches);

/** The /set-password/{token} form: the same rules without a current password. */
export const setPasswordSchema = z.object(newPasswordFields).superRefine(confirmationMatches);

// --- account recovery (public) -------------------------------------------

/** POST /api/auth/forgot-password and the /forgot-password form. */
export const forgotPasswordSchema = z.object({ email: emailField(AUTH_ERRORS.invalidEmailAddress) });

/**
 * POST /api/auth/reset-password: the emailed link's token and the new
 * password, under the same rules as every new password. (The
 * /reset-password/{token} page uses setPasswordSchema: the token is in its URL.)
 */
export const resetPasswordSchema = z.object({
  token: text(AUTH_ERRORS.tokenRequired).pipe(plainText(z.string().trim().min(1, AUTH_ERRORS.tokenRequired).max(200, AUTH_ERRORS.tokenRequired))),
  password: newPasswordField,
});

// --- user administration (admin, super_admin) ---------------------------

const roleField = z.enum(ROLES, AUTH_ERRORS.invalidRole);

/** POST /api/admin/users (docs/api.md); without a password the user gets a set-password link. */
export const createUserSchema = z.object({
  email: emailField(AUTH_ERRORS.invalidEmail),
  firstName: requiredText(AUTH_ERRORS.firstNameRequired),
  lastName: requiredText(AUTH_ERRORS.lastNameRequired),
  role: roleField,
  password: z.preprocess((value) => (value === '' || value === null ? undefined : value), password(AUTH_ERRORS.newPasswordTooShort, PASSWORD_MIN_LENGTH).optional()),
});

/** PUT /api/admin/users/{userId}/role */
export const setRoleSchema = z.object({ role: roleField });
/** PUT /api/admin/users/{userId}/status */
export const setStatusSchema = z.object({ isActive: z.boolean('isActive must be true or false') });
/** PUT /api/admin/users/{userId}/otp */
export const setOtpSchema = z.object({ otpEnabled: z.boolean('otpEnabled must be true or false') });
