import { z } from 'zod';
import { USER_ROLES } from '../../db/models/enums.ts';
import { plainText } from '../utils/validation.ts';

/**
 * Payloads of the sign-in, profile and user-administration calls (docs/domain-model.md,
 * docs/domain-model.md#validation, docs/api.md). Shared by the browser forms (conform) and the API, so this file
 * must not import server-only code. Messages are the spec's texts; pages
 * translate them as keys.
 */
export const ROLES = USER_ROLES;
export type Role = (typeof ROLES)[number];

export const MESSAGES = {
  credentialsRequired: 'Email and password are required',
  codeRequired: 'Authenticator code is required',
  invalidCode: 'Invalid authenticator code',
  invalidTotpCode: 'Invalid TOTP code',
  firstNameRequired: 'Ime je obavezno',
  lastNameRequired: 'Prezime je obavezno',
  invalidEmail: 'Neispravna email adresa',
  currentPasswordRequired: 'Trenutna lozinka je obavezna',
  currentPasswordWrong: 'Trenutna lozinka nije ispravna',
  newPasswordTooShort: 'Nova lozinka mora imati najmanje 8 znakova',
  confirmPasswordRequired: 'Potvrda lozinke je obavezna',
  passwordsDoNotMatch: 'Lozinke se ne podudaraju',
  tooLong: 'Najviše 255 znakova',
  invalidRole: 'Invalid role',
  invalidEmailAddress: 'Invalid email address',
  tokenRequired: 'The link token is required',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
// scrypt hashes any length, but a cap keeps megabyte "passwords" out.
const PASSWORD_MAX_LENGTH = 1024;
/** Any characters but control characters and broken Unicode, which no keyboard types and no hash should see. */
const password = (message: string, min = 1) => plainText(z.string().min(min, message).max(PASSWORD_MAX_LENGTH));
export const CODE_LENGTH = 6;

/** Missing, null and non-strings read as '' so the "required" message wins. */
const text = (message: string) =>
  z.preprocess((value) => (typeof value === 'string' ? value : value == null ? '' : value), z.string(message));

const requiredText = (message: string, max = 255) => text(message).pipe(plainText(z.string().trim().min(1, message).max(max, MESSAGES.tooLong)));

/** Lower-cased because users.email must be (the unique index is on the lower-case value). */
const emailField = (message: string) => text(message).pipe(plainText(z.string().trim().toLowerCase().max(255, message)).pipe(z.email(message)));

// --- sign-in -------------------------------------------------------------

export const loginSchema = z.object({
  email: text(MESSAGES.credentialsRequired).pipe(plainText(z.string().trim().toLowerCase().min(1, MESSAGES.credentialsRequired).max(255))),
  password: text(MESSAGES.credentialsRequired).pipe(password(MESSAGES.credentialsRequired)),
});

const code = (wrongMessage: string) =>
  text(MESSAGES.codeRequired).pipe(
    z
      .string()
      .trim()
      .min(1, { message: MESSAGES.codeRequired, abort: true })
      .regex(/^\d{6}$/, wrongMessage),
  );

/** POST /api/auth/verify-otp */
export const verifyOtpSchema = z.object({ otpCode: code(MESSAGES.invalidCode) });
/** POST /api/auth/totp/verify-setup */
export const verifyTotpSetupSchema = z.object({ totpCode: code(MESSAGES.invalidTotpCode) });

// --- own account ---------------------------------------------------------

/** PUT /api/auth/profile */
export const profileSchema = z.object({
  firstName: requiredText(MESSAGES.firstNameRequired),
  lastName: requiredText(MESSAGES.lastNameRequired),
  email: emailField(MESSAGES.invalidEmail),
});

/** The rules of every new password: change, set-password link, reset link. */
const newPasswordField = text(MESSAGES.newPasswordTooShort).pipe(password(MESSAGES.newPasswordTooShort, PASSWORD_MIN_LENGTH));

/** A new password and its confirmation; the mismatch lands on confirmPassword (docs/domain-model.md#validation). */
const newPasswordFields = {
  newPassword: newPasswordField,
  confirmPassword: text(MESSAGES.confirmPasswordRequired).pipe(password(MESSAGES.confirmPasswordRequired)),
};
function confirmationMatches(value: { newPassword: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  if (value.confirmPassword && value.newPassword !== value.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.passwordsDoNotMatch });
  }
}

/** PUT /api/auth/change-password */
export const changePasswordSchema = z
  .object({
    currentPassword: text(MESSAGES.currentPasswordRequired).pipe(password(MESSAGES.currentPasswordRequired)),
    ...newPasswordFields,
  })
  .superRefine(confirmationMatches);

/** The /set-password/{token} form: the same rules without a current password. */
export const setPasswordSchema = z.object(newPasswordFields).superRefine(confirmationMatches);

// --- account recovery (public) -------------------------------------------

/** POST /api/auth/forgot-password and the /forgot-password form. */
export const forgotPasswordSchema = z.object({ email: emailField(MESSAGES.invalidEmailAddress) });

/**
 * POST /api/auth/reset-password: the emailed link's token and the new
 * password, under the same rules as every new password. (The
 * /reset-password/{token} page uses setPasswordSchema: the token is in its URL.)
 */
export const resetPasswordSchema = z.object({
  token: text(MESSAGES.tokenRequired).pipe(plainText(z.string().trim().min(1, MESSAGES.tokenRequired).max(200, MESSAGES.tokenRequired))),
  password: newPasswordField,
});

// --- user administration (admin, super_admin) ---------------------------

const roleField = z.enum(ROLES, MESSAGES.invalidRole);

/** POST /api/admin/users (docs/api.md); without a password the user gets a set-password link. */
export const createUserSchema = z.object({
  email: emailField(MESSAGES.invalidEmail),
  firstName: requiredText(MESSAGES.firstNameRequired),
  lastName: requiredText(MESSAGES.lastNameRequired),
  role: roleField,
  password: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    password(MESSAGES.newPasswordTooShort, PASSWORD_MIN_LENGTH).optional(),
  ),
});

/** PUT /api/admin/users/{userId}/role */
export const setRoleSchema = z.object({ role: roleField });
/** PUT /api/admin/users/{userId}/status */
export const setStatusSchema = z.object({ isActive: z.boolean('isActive must be true or false') });
/** PUT /api/admin/users/{userId}/otp */
export const setOtpSchema = z.object({ otpEnabled: z.boolean('otpEnabled must be true or false') });
