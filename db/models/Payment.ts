import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { PaymentMethod, PaymentSource, PaymentStatus } from './enums.ts';
import type { Invoice } from './Invoice.ts';
import type { User } from './User.ts';

/** Money the customer pays on a financed invoice (a collection). */
export class Payment extends TimestampedModel<Payment> {
  declare invoiceId: string;
  declare amount: string;
  declare currency: CreationOptional<string>;
  declare paymentMethod: CreationOptional<PaymentMethod>;
  declare status: CreationOptional<PaymentStatus>;
  declare reference: string | null;
  declare notes: string | null;
  declare source: CreationOptional<PaymentSource>;
  /** The bank's entry reference of an imported statement line; unique, so re-imports are refused. */
  declare bankEntryRef: string | null;
  declare recordedBy: string | null;
  declare processedBy: string | null;
  /** Set exactly when status is no longer 'pending'. */
  declare processedAt: Date | null;

  declare invoice?: NonAttribute<Invoice>;
  declare recorder?: NonAttribute<User | null>;
  declare processor?: NonAttribute<User | null>;

  static initModel(sequelize: Sequelize) {
    return Payment.init(
      withTimestamps({
        invoiceId: DataTypes.UUID,
        amount: DataTypes.DECIMAL(15, 2),
        currency: DataTypes.CHAR(3),
        paymentMethod: DataTypes.TEXT,
        status: DataTypes.TEXT,
        reference: DataTypes.TEXT,
        notes: DataTypes.TEXT,
        source: DataTypes.TEXT,
        bankEntryRef: DataTypes.TEXT,
        recordedBy: DataTypes.UUID,
        processedBy: DataTypes.UUID,
        processedAt: DataTypes.DATE,
      }),
      tableOptions(sequelize, 'payments'),
    );
  }
}
