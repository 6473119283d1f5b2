import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { IdModel, tableOptions, withId } from './base.ts';
import type { UserTokenPurpose } from './enums.ts';
import type { User } from './User.ts';

/** A one-time link (set or reset password); only the token's hash is stored. */
export class UserToken extends IdModel<UserToken> {
  declare userId: string;
  declare purpose: UserTokenPurpose;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare usedAt: Date | null;
  declare createdAt: CreationOptional<Date>;

  declare user?: NonAttribute<User>;

  static initModel(sequelize: Sequelize) {
    return UserToken.init(
      withId({
        userId: DataTypes.UUID,
        purpose: DataTypes.TEXT,
        tokenHash: DataTypes.TEXT,
        expiresAt: DataTypes.DATE,
        usedAt: DataTypes.DATE,
        createdAt: DataTypes.DATE,
      }),
      // Written once and marked used; the table has no updated_at.
      tableOptions(sequelize, 'user_tokens', { updatedAt: false }),
    );
  }
}
