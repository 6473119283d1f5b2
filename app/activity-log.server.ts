import type { Transaction } from 'sequelize';
import { execute } from './db.server.ts';

/** One row of the append-only activity log (docs/domain-model.md): every business write adds one in its own transaction. */
export interface ActivityEntry {
  action: string;
  userId: string | null;
  entityType?: string | null;
  entityId?: string | null;
  ipAddress?: string | null;
  details?: Record<string, unknown>;
  /** When it happened, if not now: a record written for an earlier moment (the demo book's history). */
  createdAt?: Date | string | null;
}

export async function logActivity(entry: ActivityEntry, transaction: Transaction): Promise<void> {
  await execute(
    `INSERT INTO activity_logs (action, entity_type, entity_id, user_id, ip_address, details, created_at)
     VALUES (:action, :entityType, :entityId, :userId, :ipAddress, CAST(:details AS jsonb), coalesce(CAST(:createdAt AS timestamptz), clock_timestamp()))`,
    {
      action: entry.action,
      entityType: entry.entityType ?? null,
      entityId: entry.entityId ?? null,
      userId: entry.userId,
      // The column is capped at 64 characters; an IPv6 address fits, junk is cut.
      ipAddress: entry.ipAddress ? entry.ipAddress.slice(0, 64) : null,
      details: JSON.stringify(entry.details ?? {}),
      createdAt: entry.createdAt ? new Date(entry.createdAt).toISOString() : null,
    },
    { transaction },
  );
}
