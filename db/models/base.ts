import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type InitOptions, type Sequelize } from 'sequelize';

/*
 * What the models share, declared once: the UUID id generated in JS (so an id is known before the insert, see
 * index.ts), the created/updated instants Sequelize keeps (`timestamps: true`), the creating user, and the options
 * every model is initialised with. A model extends the base class that declares its shared columns and passes the
 * rest of its attributes through the matching `with…` function; db/models/models.test.ts still checks every column of
 * every model against the database, and RowOf (rows.ts) sees the inherited attributes like the model's own.
 *
 * The attribute objects are built afresh for each model: Sequelize's init writes into them (their field, their model).
 */

/** A table whose key is a UUID `id`. */
export abstract class IdModel<M extends IdModel<M>> extends Model<InferAttributes<M>, InferCreationAttributes<M>> {
  declare id: CreationOptional<string>;
}

/** …with `created_at` and `updated_at`, which Sequelize fills in. */
export abstract class TimestampedModel<M extends TimestampedModel<M>> extends IdModel<M> {
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** …and `created_by`, the user who created the row (NULL for rows the system made). */
export abstract class AuditedModel<M extends AuditedModel<M>> extends TimestampedModel<M> {
  declare createdBy: string | null;
}

/** The attributes of an IdModel: the id, then the model's own. */
export function withId<Attributes extends object>(attributes: Attributes) {
  return { id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 }, ...attributes };
}

/** The attributes of a TimestampedModel. */
export function withTimestamps<Attributes extends object>(attributes: Attributes) {
  return { ...withId(attributes), createdAt: DataTypes.DATE, updatedAt: DataTypes.DATE };
}

/** The attributes of an AuditedModel. */
export function withAudit<Attributes extends object>(attributes: Attributes) {
  return { ...withTimestamps(attributes), createdBy: DataTypes.UUID };
}

/** A model's init options: its table, snake_case columns, the timestamps Sequelize keeps unless `options` say otherwise. */
export function tableOptions<M extends Model>(
  sequelize: Sequelize,
  tableName: string,
  options: Pick<InitOptions<M>, 'timestamps' | 'createdAt' | 'updatedAt'> = {},
): InitOptions<M> {
  return { sequelize, tableName, underscored: true, timestamps: true, ...options };
}

/**
 * …a request one user makes and another decides (four eyes): credit limit requests, ledger adjustments, write-off
 * requests. `Status` is the table's status enum; a table whose requester is never NULL narrows `requestedBy`.
 */
export abstract class RequestModel<M extends RequestModel<M, Status>, Status extends string> extends TimestampedModel<M> {
  declare reason: string;
  declare status: CreationOptional<Status>;
  declare requestedBy: string | null;
  declare requestedAt: CreationOptional<Date>;
  declare decidedBy: string | null;
  declare decidedAt: Date | null;
  declare rejectionReason: string | null;
}

/** The attributes of a RequestModel. */
export function withRequestColumns<Attributes extends object>(attributes: Attributes) {
  return withTimestamps({
    ...attributes,
    reason: DataTypes.TEXT,
    status: DataTypes.TEXT,
    requestedBy: DataTypes.UUID,
    requestedAt: DataTypes.DATE,
    decidedBy: DataTypes.UUID,
    decidedAt: DataTypes.DATE,
    rejectionReason: DataTypes.TEXT,
  });
}
