import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { tableOptions } from './base.ts';

/** A setting of the factoring book that staff change on /settings (e.g. the ledger adjustment's four-eyes amount). */
export class BookSetting extends Model<InferAttributes<BookSetting>, InferCreationAttributes<BookSetting>> {
  declare key: string;
  declare value: string;
  declare updatedBy: string | null;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    return BookSetting.init(
      {
        key: { type: DataTypes.TEXT, primaryKey: true },
        value: DataTypes.TEXT,
        updatedBy: DataTypes.UUID,
        updatedAt: DataTypes.DATE,
      },
      tableOptions(sequelize, 'book_settings', { createdAt: false }),
    );
  }
}
