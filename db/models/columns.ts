import {
  DataTypes,
  Model,
  type BuildOptions,
  type CreationOptional,
  type DataType,
  type InferCreationAttributes,
  type InitOptions,
  type ModelAttributeColumnOptions,
  type ModelStatic,
  type Sequelize,
} from 'sequelize';

/*
 * Each column of a model is said once (docs/decisions/019-model-columns-once.md): a model lists its columns in one
 * object built from the vocabulary below, and both its TypeScript attributes (what InferAttributes and RowOf see) and
 * its Sequelize attributes come from that object. `text` is a NOT NULL TEXT column read as a string,
 * `nullable(text)` one that may be NULL, `defaulted(…)` one the database fills in when an insert leaves it out
 * (Sequelize's CreationOptional). The value types are what the driver gives (db/models/rows.ts): NUMERIC an exact
 * string, DATE a 'YYYY-MM-DD' string, INT8 and INT4 numbers, TIMESTAMPTZ a Date, JSONB the parsed value.
 *
 * Nullability and defaults are not passed to Sequelize (the database checks and fills them, see index.ts); they type
 * the model, and db/models/models.test.ts checks them against the schema.
 */

declare const valueType: unique symbol;

/** A column: its Sequelize type and what the schema says of it; `Value` is the type the driver reads it as. */
export interface Column<Value> {
  readonly type: DataType;
  /** The column may be NULL. */
  readonly nullable: boolean;
  /** The database (or Sequelize, for ids and timestamps) fills it in when an insert leaves it out. */
  readonly defaulted: boolean;
  /** An enum column's allowed values (db/models/enums.ts). */
  readonly values?: readonly string[];
  readonly primaryKey?: boolean;
  readonly autoIncrement?: boolean;
  readonly defaultValue?: ModelAttributeColumnOptions['defaultValue'];
  /** Only in the type system: the column's value type. */
  readonly [valueType]: Value;
}

/** A model's columns by attribute name (camelCase; the table's column is its snake_case). */
export type Columns = Record<string, Column<unknown>>;

/** The attribute types of a model with these columns. */
export type ColumnsOf<Of extends Columns> = { [Name in keyof Of]: Of[Name] extends Column<infer Value> ? Value : never };

function column<Value>(type: DataType): Column<Value> {
  return { type, nullable: false, defaulted: false } as Column<Value>;
}

export const text = column<string>(DataTypes.TEXT);
export const uuid = column<string>(DataTypes.UUID);
export const boolean = column<boolean>(DataTypes.BOOLEAN);
export const integer = column<number>(DataTypes.INTEGER);
/** INT8: a number (db/connection.ts parses it; every count and size here is far below 2^53). */
export const bigint = column<number>(DataTypes.BIGINT);
/** TIMESTAMPTZ: an instant. */
export const instant = column<Date>(DataTypes.DATE);
/** DATE: a calendar day, 'YYYY-MM-DD'. */
export const day = column<string>(DataTypes.DATEONLY);

/** CHAR(length). */
export function char(length: number) {
  return column<string>(DataTypes.CHAR(length));
}

/** NUMERIC(precision, scale): an exact decimal string such as '1.5000'. */
export function numeric(precision: number, scale: number) {
  return column<string>(DataTypes.DECIMAL(precision, scale));
}

/** EUR, NUMERIC(15,2): an exact decimal string such as '50000.00' (docs/money.md). */
export const money = numeric(15, 2);

/** JSONB whose parsed value the model knows as `Value`. */
export function jsonb<Value>() {
  return column<Value>(DataTypes.JSONB);
}

/** TEXT limited by a CHECK (… IN (…)) to one of `values` (a list of db/models/enums.ts). */
export function oneOf<const Values extends readonly string[]>(values: Values): Column<Values[number]> {
  return { ...column<Values[number]>(DataTypes.TEXT), values };
}

/** An array of `element` (TEXT[], UUID[]). */
export function arrayOf<Value>(element: Column<Value>) {
  return column<Value[]>(DataTypes.ARRAY(element.type as DataTypes.AbstractDataTypeConstructor));
}

/** …that may be NULL. */
export function nullable<Value>(of: Column<Value>): Column<Value | null> {
  return { ...of, nullable: true } as Column<Value | null>;
}

/** …that the database fills in when an insert leaves it out (optional in create()). */
export function defaulted<Value>(of: Column<Value>): Column<CreationOptional<Value>> {
  return { ...of, defaulted: true } as Column<CreationOptional<Value>>;
}

/** …that is (part of) the primary key; `options` for keys the database or Sequelize generates. */
export function primaryKey<Value>(of: Column<Value>, options: Pick<Column<Value>, 'autoIncrement' | 'defaultValue'> = {}): Column<Value> {
  return { ...of, primaryKey: true, ...options };
}

/** The Sequelize attributes of `columns`, built afresh: Sequelize's init writes into them (their field, their model). */
function attributesOf<Of extends Columns>(columns: Of) {
  const attributes: Record<string, ModelAttributeColumnOptions> = {};
  for (const [name, { type, primaryKey, autoIncrement, defaultValue }] of Object.entries(columns)) {
    attributes[name] = { type, ...(primaryKey && { primaryKey }), ...(autoIncrement && { autoIncrement }), ...(defaultValue !== undefined && { defaultValue }) };
  }
  return attributes as { [Name in keyof Of]: ModelAttributeColumnOptions };
}

/** Init options beyond the table: a table without Sequelize's timestamps, or with another name for one. */
type TableOptions = Pick<InitOptions, 'timestamps' | 'createdAt' | 'updatedAt'>;

/** An instance of a model with these columns. */
type Instance<Of extends Columns> = Model<ColumnsOf<Of>, InferCreationAttributes<Model & ColumnsOf<Of>>> & ColumnsOf<Of>;

/** What `tableModel` gives: a Model class whose instances have the columns, with the columns and initModel as statics. */
type TableModel<Of extends Columns> = (abstract new (values?: InferCreationAttributes<Model & ColumnsOf<Of>>, options?: BuildOptions) => Instance<Of>) &
  Omit<typeof Model, 'prototype'> & {
    /** The columns the model was made from (db/models/models.test.ts checks them against the schema). */
    readonly columns: Columns;
    /** Binds the model to `sequelize` (db/models/index.ts). */
    initModel(sequelize: Sequelize): void;
  };

/**
 * The class a model extends: `export class Task extends tableModel('tasks', columns) { …associations }`. Its
 * instances have `columns` as attributes, typed from them; `initModel` binds it to the table with snake_case columns
 * and the created/updated timestamps Sequelize keeps unless `options` say otherwise.
 */
export function tableModel<Of extends Columns>(table: string, columns: Of, options: TableOptions = {}): TableModel<Of> {
  abstract class Table extends Model {
    static readonly columns: Columns = columns;

    static initModel(sequelize: Sequelize) {
      (this as unknown as ModelStatic<Model>).init(attributesOf(columns), { sequelize, tableName: table, underscored: true, timestamps: true, ...options });
    }
  }
  return Table as unknown as TableModel<Of>;
}
