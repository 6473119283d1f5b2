import type { NonAttribute } from 'sequelize';
import { withId } from './base.ts';
import { defaulted, instant, jsonb, nullable, tableModel, text, uuid } from './columns.ts';
import type { User } from './User.ts';

const columns = withId({
  /** A snake_case verb such as 'client_created'. */
  action: text,
  entityType: nullable(text),
  entityId: nullable(uuid),
  userId: nullable(uuid),
  ipAddress: nullable(text),
  details: defaulted(jsonb<Record<string, unknown>>()),
  createdAt: defaulted(instant),
});

/**
 * The audit trail: who did what to which entity. Append-only: the database
 * refuses UPDATE and DELETE, so instances must never be saved twice or destroyed.
 */
export class ActivityLog extends tableModel('activity_logs', columns, { updatedAt: false }) {
  declare user?: NonAttribute<User | null>;
}
