import type { CreationOptional, InferAttributes, Model, ModelStatic } from 'sequelize';

/**
 * The row types of the raw SQL in app/, derived from the models
 * (docs/decisions/014-row-types-from-models.md): `RowOf<typeof Client>` is a
 * `SELECT * FROM clients` row, `RowOf<typeof Client, 'id' | 'company_name'>`
 * the row of a query that selects those two columns. Renaming or retyping an
 * attribute in a model breaks the build wherever a query reads it.
 *
 * Keys are the columns as SQL returns them: the attribute in snake_case, as
 * the models' `underscored: true` names them. Values are the attribute types,
 * which are what the driver gives (db/connection.ts and the decision record):
 * NUMERIC an exact string, DATE a 'YYYY-MM-DD' string, INT8 a number,
 * TIMESTAMPTZ a Date, JSONB the parsed value. `RowValue` is the one mapping
 * between the two: it only drops Sequelize's CreationOptional brand, which
 * marks a column the database fills in and is no type of its own.
 */

/** 'postalCode' → 'postal_code'. */
type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}` : Name;

/** An attribute's type as the driver returns it. */
type RowValue<Attribute> = Attribute extends CreationOptional<infer Value> ? Value : Attribute;

type FullRow<M extends ModelStatic<Model>> = {
  [Attribute in keyof InferAttributes<InstanceType<M>> & string as SnakeCase<Attribute>]: RowValue<InferAttributes<InstanceType<M>>[Attribute]>;
};

/**
 * A row of the model's table, or the given columns of it. A union of models
 * (`typeof Client | typeof Customer`, a query over either table) gives the
 * union of their rows, and takes only the columns they share.
 */
export type RowOf<M extends ModelStatic<Model>, Column extends keyof FullRow<M> = keyof FullRow<M>> =
  M extends ModelStatic<Model> ? Pick<FullRow<M>, Column & keyof FullRow<M>> : never;

/** `Row` with the given columns not null: a query whose WHERE or JOIN rules the NULLs out. */
export type NonNullColumns<Row, Column extends keyof Row> = Omit<Row, Column> & { [Name in Column]: NonNullable<Row[Name]> };
