import type { NonAttribute } from 'sequelize';
import { withId } from './base.ts';
import { defaulted, instant, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { USER_TOKEN_PURPOSES } from './enums.ts';
import type { User } from './User.ts';

const columns = withId({
  userId: uuid,
  purpose: oneOf(USER_TOKEN_PURPOSES),
  tokenHash: text,
  expiresAt: instant,
  usedAt: nullable(instant),
  createdAt: defaulted(instant),
});

/** A one-time link (set or reset password); only the token's hash is stored. */
export class UserToken extends tableModel(
  'user_tokens',
  columns,
  // Written once and marked used; the table has no updated_at.
  { updatedAt: false },
) {
  declare user?: NonAttribute<User>;
}
