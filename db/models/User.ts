import { withTimestamps } from './base.ts';
import { bigint, boolean, defaulted, instant, nullable, oneOf, tableModel, text } from './columns.ts';
import { USER_ROLES } from './enums.ts';

const columns = withTimestamps({
  email: text,
  firstName: defaulted(text),
  lastName: defaulted(text),
  role: defaulted(oneOf(USER_ROLES)),
  isActive: defaulted(boolean),
  passwordHash: nullable(text),
  mustChangePassword: defaulted(boolean),
  totpSecretEncrypted: nullable(text),
  totpPendingSecretEncrypted: nullable(text),
  /** NULL means on: only an explicit false skips the second factor. */
  otpEnabled: nullable(boolean),
  totpConfirmedAt: nullable(instant),
  totpLastStep: nullable(bigint),
  lastLoginAt: nullable(instant),
});

/** A member of staff who signs in. */
export class User extends tableModel('users', columns) {}
