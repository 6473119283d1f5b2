import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { UserTokenPurpose } from './enums.ts';
import type { User } from './User.ts';

/** A one-time link (set or reset password); only the token's hash is stored. */
export class UserToken extends Model<InferAttributes<UserToken>, InferCreationAttributes<UserToken>> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare purpose: UserTokenPurpose;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare usedAt: Date | null;
  declare createdAt: CreationOptional<Date>;

  declare user?: NonAttribute<User>;

  static initModel(sequelize: Sequelize) {
    return UserToken.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        userId: DataTypes.UUID,
        purpose: DataTypes.TEXT,
        tokenHash: DataTypes.TEXT,
        expiresAt: DataTypes.DATE,
        usedAt: DataTypes.DATE,
        createdAt: DataTypes.DATE,
      },
      // Written once and marked used; the table has no updated_at.
      { sequelize, tableName: 'user_tokens', underscored: true, timestamps: true, updatedAt: false },
    );
  }
}
