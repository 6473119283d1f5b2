import { withRequestColumns } from './base.ts';
import { money, nullable, tableModel, uuid } from './columns.ts';
import { WRITE_OFF_REQUEST_STATUSES } from './enums.ts';

const columns = withRequestColumns(WRITE_OFF_REQUEST_STATUSES, {
  invoiceId: uuid,
  /** With 'approved': the loss booked (outstanding advance and fees). */
  lossAmount: nullable(money),
  /** Always a manager: never NULL here. */
  requestedBy: uuid,
});

/** A manager's request to write off a financed non-recourse invoice; an admin other than the requester decides it (four eyes). */
export class WriteOffRequest extends tableModel('write_off_requests', columns) {}
