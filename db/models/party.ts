import { DataTypes, type CreationOptional, type NonAttribute } from 'sequelize';
import { AuditedModel, withAudit } from './base.ts';
import type { Document } from './Document.ts';
import type { RiskCategory } from './enums.ts';
import type { Invoice } from './Invoice.ts';
import type { RiskAssessment } from './RiskAssessment.ts';
import type { User } from './User.ts';

/**
 * The columns clients and customers share (docs/domain-model.md): both are companies known by their OIB, with an
 * address, a bank account, a risk rating and a credit limit against the advances outstanding on their invoices.
 * Client and Customer extend this and add their own columns.
 */
export abstract class PartyModel<M extends PartyModel<M>> extends AuditedModel<M> {
  declare companyName: string;
  declare oib: string;
  declare address: string | null;
  declare city: string | null;
  declare postalCode: string | null;
  declare country: CreationOptional<string>;
  declare email: string | null;
  declare phone: string | null;
  declare iban: string | null;
  declare registrationNumber: string | null;
  declare riskCategory: RiskCategory | null;
  declare riskScore: number | null;
  /** EUR, exact decimal string such as '50000.00'; NULL: no limit approved. */
  declare creditLimit: string | null;
  /** EUR, the advances outstanding on the party's invoices. */
  declare usedCredit: CreationOptional<string>;
  /** 'YYYY-MM-DD' */
  declare foundedOn: string | null;

  declare creator?: NonAttribute<User | null>;
  declare invoices?: NonAttribute<Invoice[]>;
  declare documents?: NonAttribute<Document[]>;
  declare riskAssessments?: NonAttribute<RiskAssessment[]>;
}

/** The attributes of a PartyModel: the shared columns, then the model's own. */
export function withPartyColumns<Attributes extends object>(attributes: Attributes) {
  return withAudit({
    companyName: DataTypes.TEXT,
    oib: DataTypes.CHAR(11),
    address: DataTypes.TEXT,
    city: DataTypes.TEXT,
    postalCode: DataTypes.TEXT,
    country: DataTypes.TEXT,
    email: DataTypes.TEXT,
    phone: DataTypes.TEXT,
    iban: DataTypes.TEXT,
    registrationNumber: DataTypes.TEXT,
    riskCategory: DataTypes.TEXT,
    riskScore: DataTypes.INTEGER,
    creditLimit: DataTypes.DECIMAL(15, 2),
    usedCredit: DataTypes.DECIMAL(15, 2),
    foundedOn: DataTypes.DATEONLY,
    ...attributes,
  });
}
