import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { WriteOffRequestStatus } from './enums.ts';

/** A manager's request to write off a financed non-recourse invoice; an admin other than the requester decides it (four eyes). */
export class WriteOffRequest extends Model<InferAttributes<WriteOffRequest>, InferCreationAttributes<WriteOffRequest>> {
  declare id: CreationOptional<string>;
  declare invoiceId: string;
  declare reason: string;
  declare status: CreationOptional<WriteOffRequestStatus>;
  declare requestedBy: string;
  declare requestedAt: CreationOptional<Date>;
  declare decidedBy: string | null;
  declare decidedAt: Date | null;
  declare rejectionReason: string | null;
  /** With 'approved': the loss booked (outstanding advance and fees). */
  declare lossAmount: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return WriteOffRequest.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        invoiceId: DataTypes.UUID,
        reason: DataTypes.TEXT,
        status: DataTypes.TEXT,
        requestedBy: DataTypes.UUID,
        requestedAt: DataTypes.DATE,
        decidedBy: DataTypes.UUID,
        decidedAt: DataTypes.DATE,
        rejectionReason: DataTypes.TEXT,
        lossAmount: DataTypes.DECIMAL(15, 2),
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'write_off_requests', underscored: true, timestamps: true },
    );
  }
}
