import { DataTypes } from 'sequelize';
import { defaulted, instant, nullable, oneOf, primaryKey, text, uuid, type Columns } from './columns.ts';

/*
 * The columns models share, declared once: the UUID id generated in JS (so an id is known before the insert, see
 * index.ts), the created/updated instants Sequelize keeps (`timestamps: true`), the creating user, and a four-eyes
 * request's columns. A model passes its own columns through the matching `with…` function; RowOf (rows.ts) sees the
 * shared columns like the model's own, and db/models/models.test.ts checks them against the database.
 */

/** The columns of a table whose key is a UUID `id`: the id, then the model's own. */
export function withId<Own extends Columns>(columns: Own) {
  return { id: primaryKey(defaulted(uuid), { defaultValue: DataTypes.UUIDV4 }), ...columns };
}

/** …with `created_at` and `updated_at`, which Sequelize fills in. */
export function withTimestamps<Own extends Columns>(columns: Own) {
  return { ...withId(columns), createdAt: defaulted(instant), updatedAt: defaulted(instant) };
}

/** …and `created_by`, the user who created the row (NULL for rows the system made). */
export function withAudit<Own extends Columns>(columns: Own) {
  return { ...withTimestamps(columns), createdBy: nullable(uuid) };
}

/**
 * …a request one user makes and another decides (four eyes): credit limit requests, ledger adjustments, write-off
 * requests. `statuses` are the table's status enum; a table whose requester is never NULL overrides `requestedBy`.
 */
export function withRequestColumns<const Statuses extends readonly string[], Own extends Columns>(statuses: Statuses, columns: Own) {
  return withTimestamps({
    reason: text,
    status: defaulted(oneOf(statuses)),
    requestedBy: nullable(uuid),
    requestedAt: defaulted(instant),
    decidedBy: nullable(uuid),
    decidedAt: nullable(instant),
    rejectionReason: nullable(text),
    ...columns,
  });
}
