import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import type { Document } from './Document.ts';
import type { RiskCategory } from './enums.ts';
import type { Invoice } from './Invoice.ts';
import type { RiskAssessment } from './RiskAssessment.ts';
import type { User } from './User.ts';

/** The debtor: the company that owes a client's invoice and pays it to the factor. */
export class Customer extends Model<InferAttributes<Customer>, InferCreationAttributes<Customer>> {
  declare id: CreationOptional<string>;
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
  declare accountBlocked: CreationOptional<boolean>;
  declare blockageReason: string | null;
  declare lastFinaCheck: Date | null;
  declare riskCategory: RiskCategory | null;
  declare riskScore: number | null;
  /** 'YYYY-MM-DD' */
  declare foundedOn: string | null;
  /** The debtor's limit across all clients (NULL: none approved) and the advances outstanding on its invoices. */
  declare creditLimit: string | null;
  declare usedCredit: CreationOptional<string>;
  declare createdBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare creator?: NonAttribute<User | null>;
  declare invoices?: NonAttribute<Invoice[]>;
  declare documents?: NonAttribute<Document[]>;
  declare riskAssessments?: NonAttribute<RiskAssessment[]>;

  static initModel(sequelize: Sequelize) {
    return Customer.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
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
        accountBlocked: DataTypes.BOOLEAN,
        blockageReason: DataTypes.TEXT,
        lastFinaCheck: DataTypes.DATE,
        riskCategory: DataTypes.TEXT,
        creditLimit: DataTypes.DECIMAL(15, 2),
        usedCredit: DataTypes.DECIMAL(15, 2),
        riskScore: DataTypes.INTEGER,
        foundedOn: DataTypes.DATEONLY,
        createdBy: DataTypes.UUID,
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'customers', underscored: true, timestamps: true },
    );
  }
}
