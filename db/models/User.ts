import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { UserRole } from './enums.ts';

/** A member of staff who signs in. */
export class User extends TimestampedModel<User> {
  declare email: string;
  declare firstName: CreationOptional<string>;
  declare lastName: CreationOptional<string>;
  declare role: CreationOptional<UserRole>;
  declare isActive: CreationOptional<boolean>;
  declare passwordHash: string | null;
  declare mustChangePassword: CreationOptional<boolean>;
  declare totpSecretEncrypted: string | null;
  declare totpPendingSecretEncrypted: string | null;
  /** NULL means on: only an explicit false skips the second factor. */
  declare otpEnabled: boolean | null;
  declare totpConfirmedAt: Date | null;
  declare totpLastStep: number | null;
  declare lastLoginAt: Date | null;

  static initModel(sequelize: Sequelize) {
    return User.init(
      withTimestamps({
        email: DataTypes.TEXT,
        firstName: DataTypes.TEXT,
        lastName: DataTypes.TEXT,
        role: DataTypes.TEXT,
        isActive: DataTypes.BOOLEAN,
        passwordHash: DataTypes.TEXT,
        mustChangePassword: DataTypes.BOOLEAN,
        totpSecretEncrypted: DataTypes.TEXT,
        totpPendingSecretEncrypted: DataTypes.TEXT,
        otpEnabled: DataTypes.BOOLEAN,
        totpConfirmedAt: DataTypes.DATE,
        totpLastStep: DataTypes.BIGINT,
        lastLoginAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'users'),
    );
  }
}
