import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { WriteOffRequestStatus } from './enums.ts';

/** A manager's request to write off a financed non-recourse invoice; an admin other than the requester decides it (four eyes). */
export class WriteOffRequest extends TimestampedModel<WriteOffRequest> {
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

  static initModel(sequelize: Sequelize) {
    return WriteOffRequest.init(
      withTimestamps({
        invoiceId: DataTypes.UUID,
        reason: DataTypes.TEXT,
        status: DataTypes.TEXT,
        requestedBy: DataTypes.UUID,
        requestedAt: DataTypes.DATE,
        decidedBy: DataTypes.UUID,
        decidedAt: DataTypes.DATE,
        rejectionReason: DataTypes.TEXT,
        lossAmount: DataTypes.DECIMAL(15, 2),
      }),
      tableOptions(sequelize, 'write_off_requests'),
    );
  }
}
