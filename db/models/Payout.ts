import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { Client } from './Client.ts';
import type { PayoutKind, PayoutStatus } from './enums.ts';
import type { Invoice } from './Invoice.ts';

/** Money the factor pays a client: the advance at financing, the reserve when collected. */
export class Payout extends AuditedModel<Payout> {
  declare clientId: string;
  declare invoiceId: string;
  /** One of each kind per invoice. */
  declare kind: PayoutKind;
  declare amount: string;
  declare currency: CreationOptional<string>;
  declare iban: string;
  declare status: CreationOptional<PayoutStatus>;
  declare exportBatchId: string | null;
  declare exportedAt: Date | null;

  declare client?: NonAttribute<Client>;
  declare invoice?: NonAttribute<Invoice>;

  static initModel(sequelize: Sequelize) {
    return Payout.init(
      withAudit({
        clientId: DataTypes.UUID,
        invoiceId: DataTypes.UUID,
        kind: DataTypes.TEXT,
        amount: DataTypes.DECIMAL(15, 2),
        currency: DataTypes.CHAR(3),
        iban: DataTypes.TEXT,
        status: DataTypes.TEXT,
        exportBatchId: DataTypes.TEXT,
        exportedAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'payouts'),
    );
  }
}
