import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { UserRole } from './enums.ts';

/** A member of staff who signs in. */
export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<string>;
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
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return User.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
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
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      {
        sequelize,
        tableName: 'users',
        underscored: true,
        timestamps: true,
      },
    );
  }
}
