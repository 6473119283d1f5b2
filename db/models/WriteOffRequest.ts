import { DataTypes, type Sequelize } from 'sequelize';
import { RequestModel, tableOptions, withRequestColumns } from './base.ts';
import type { WriteOffRequestStatus } from './enums.ts';

/** A manager's request to write off a financed non-recourse invoice; an admin other than the requester decides it (four eyes). */
export class WriteOffRequest extends RequestModel<WriteOffRequest, WriteOffRequestStatus> {
  declare invoiceId: string;
  /** Always a manager: never NULL here. */
  declare requestedBy: string;
  /** With 'approved': the loss booked (outstanding advance and fees). */
  declare lossAmount: string | null;

  static initModel(sequelize: Sequelize) {
    return WriteOffRequest.init(
      withRequestColumns({
        invoiceId: DataTypes.UUID,
        lossAmount: DataTypes.DECIMAL(15, 2),
      }),
      tableOptions(sequelize, 'write_off_requests'),
    );
  }
}
