import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { AuditedModel, tableOptions, withAudit } from './base.ts';
import type { Client } from './Client.ts';
import type { AgreementFeeModel, AgreementSignatureStatus } from './enums.ts';

/** One version of a client's factoring agreement (docs/money.md); rows are never deleted, a financing keeps the version it used. */
export class Agreement extends AuditedModel<Agreement> {
  declare clientId: string;
  declare number: string;
  declare version: number;
  /** 'YYYY-MM-DD' days */
  declare effectiveFrom: string;
  declare validFrom: string;
  declare validUntil: string | null;
  declare advanceRate: string;
  declare feeModel: AgreementFeeModel;
  declare feeRate: string;
  declare minimumFee: CreationOptional<string>;
  declare adminFee: CreationOptional<string>;
  declare documentationFee: CreationOptional<string>;
  declare recourse: CreationOptional<boolean>;
  declare recourseDays: number | null;
  declare maxTenorDays: number;
  declare disclosed: CreationOptional<boolean>;
  /** Verification waits for the debtor's confirmation (disclosed agreements only). */
  declare requiresDebtorConfirmation: CreationOptional<boolean>;
  declare concentrationLimit: CreationOptional<string>;
  declare concentrationThreshold: CreationOptional<string>;
  declare signatureStatus: CreationOptional<AgreementSignatureStatus>;
  declare signedOn: string | null;
  declare signedBy: string | null;
  declare documentId: string | null;

  declare client?: NonAttribute<Client>;

  static initModel(sequelize: Sequelize) {
    return Agreement.init(
      withAudit({
        clientId: DataTypes.UUID,
        number: DataTypes.TEXT,
        version: DataTypes.INTEGER,
        effectiveFrom: DataTypes.DATEONLY,
        validFrom: DataTypes.DATEONLY,
        validUntil: DataTypes.DATEONLY,
        advanceRate: DataTypes.DECIMAL(5, 2),
        feeModel: DataTypes.TEXT,
        feeRate: DataTypes.DECIMAL(7, 4),
        minimumFee: DataTypes.DECIMAL(15, 2),
        adminFee: DataTypes.DECIMAL(15, 2),
        documentationFee: DataTypes.DECIMAL(15, 2),
        recourse: DataTypes.BOOLEAN,
        recourseDays: DataTypes.INTEGER,
        maxTenorDays: DataTypes.INTEGER,
        disclosed: DataTypes.BOOLEAN,
        requiresDebtorConfirmation: DataTypes.BOOLEAN,
        concentrationLimit: DataTypes.DECIMAL(5, 2),
        concentrationThreshold: DataTypes.DECIMAL(15, 2),
        signatureStatus: DataTypes.TEXT,
        signedOn: DataTypes.DATEONLY,
        signedBy: DataTypes.UUID,
        documentId: DataTypes.UUID,
      }),
      tableOptions(sequelize, 'agreements'),
    );
  }
}
