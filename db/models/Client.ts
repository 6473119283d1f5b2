import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { CreditLimitRequest } from './CreditLimitRequest.ts';
import type { Document } from './Document.ts';
import type { ClientStatus, OnboardingStatus, RiskCategory } from './enums.ts';
import type { Invoice } from './Invoice.ts';
import type { Payout } from './Payout.ts';
import type { RiskAssessment } from './RiskAssessment.ts';
import type { User } from './User.ts';

/** A company that sells its invoices to the factor (the factor's customer in the agreement). */
export class Client extends Model<InferAttributes<Client>, InferCreationAttributes<Client>> {
  declare id: CreationOptional<string>;
  declare companyName: string;
  declare oib: string;
  declare address: string | null;
  declare city: string | null;
  declare postalCode: string | null;
  declare country: CreationOptional<string>;
  declare contactPerson: string | null;
  declare email: string | null;
  declare phone: string | null;
  declare iban: string | null;
  declare registrationNumber: string | null;
  declare status: CreationOptional<ClientStatus>;
  declare riskCategory: RiskCategory | null;
  declare riskScore: number | null;
  /** EUR, exact decimal string such as '50000.00'. */
  declare creditLimit: string | null;
  /** EUR, the sum of open advances. */
  declare usedCredit: CreationOptional<string>;
  declare onboardingStatus: CreationOptional<OnboardingStatus>;
  /** 'YYYY-MM-DD' */
  declare foundedOn: string | null;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare creator?: NonAttribute<User | null>;
  declare invoices?: NonAttribute<Invoice[]>;
  declare creditLimitRequests?: NonAttribute<CreditLimitRequest[]>;
  declare payouts?: NonAttribute<Payout[]>;
  declare documents?: NonAttribute<Document[]>;
  declare riskAssessments?: NonAttribute<RiskAssessment[]>;

  static initModel(sequelize: Sequelize) {
    return Client.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        companyName: DataTypes.TEXT,
        oib: DataTypes.CHAR(11),
        address: DataTypes.TEXT,
        city: DataTypes.TEXT,
        postalCode: DataTypes.TEXT,
        country: DataTypes.TEXT,
        contactPerson: DataTypes.TEXT,
        email: DataTypes.TEXT,
        phone: DataTypes.TEXT,
        iban: DataTypes.TEXT,
        registrationNumber: DataTypes.TEXT,
        status: DataTypes.TEXT,
        riskCategory: DataTypes.TEXT,
        riskScore: DataTypes.INTEGER,
        creditLimit: DataTypes.DECIMAL(15, 2),
        usedCredit: DataTypes.DECIMAL(15, 2),
        onboardingStatus: DataTypes.TEXT,
        foundedOn: DataTypes.DATEONLY,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'clients', underscored: true, timestamps: true },
    );
  }
}
