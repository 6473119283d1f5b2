import * as z from 'zod';
import { pageBounds } from '../utils/list-url.ts';
import { selectPage, selectRows } from '../db.server.ts';
import { apiError, zodFieldErrors } from '../utils/api.server.ts';
import { isCalendarDate, parseTimestamp, plainText } from '../utils/validation.ts';
import { BUSINESS_TIME_ZONE } from '../utils/business-time.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { iso } from '../utils/api-values.ts';
import type { ActivityLog } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/** GET /api/activity-logs (docs/domain-model.md Activity log), the dashboard's recent activities and the monitoring log tab. */
export interface ActivityLogDto {
  id: string;
  action: string;
  entityType: string | null;
  entityId: string | null;
  userId: string | null;
  userName: string | null;
  ipAddress: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day (YYYY-MM-DD, a Croatian calendar day) or an ISO timestamp. */
/** A day (YYYY-MM-DD, read in Zagreb) or a full timestamp, either one that exists: 2026-02-30 is refused, not sent to the database. */
const moment = z
  .string()
  .trim()
  .refine((value) => (DAY.test(value) ? isCalendarDate(value) && value >= '1000-01-01' : parseTimestamp(value) !== null), 'Invalid date');
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export const activityLogFilterSchema = z.object({
  userId: z.preprocess(blankToUndefined, z.uuid().optional()),
  action: z.preprocess(blankToUndefined, plainText(z.string().trim().max(100)).optional()),
  entityType: z.preprocess(blankToUndefined, plainText(z.string().trim().max(100)).optional()),
  entityId: z.preprocess(blankToUndefined, z.uuid().optional()),
  from: z.preprocess(blankToUndefined, moment.optional()),
  to: z.preprocess(blankToUndefined, moment.optional()),
});
export type ActivityLogFilters = z.output<typeof activityLogFilterSchema>;

/** Reads the filters from a URL's search parameters; a bad value is a 400 with the field named. */
export function activityLogFilters(search: URLSearchParams): ActivityLogFilters {
  const raw = Object.fromEntries(['userId', 'action', 'entityType', 'entityId', 'from', 'to'].map((key) => [key, search.get(key) ?? undefined]));
  const parsed = activityLogFilterSchema.safeParse(raw);
  if (!parsed.success) throw apiError(400, 'dashboard.validation.filterInvalid', { errors: zodFieldErrors(parsed.error) });
  return parsed.data;
}

/** The filters that match one column exactly, with their column. */
const EQUALITY_FILTERS = [
  ['userId', 'user_id'],
  ['action', 'action'],
  ['entityType', 'entity_type'],
  ['entityId', 'entity_id'],
] as const satisfies ReadonlyArray<readonly [keyof ActivityLogFilters, string]>;

function whereOf(filters: ActivityLogFilters) {
  const clauses: string[] = [];
  const replacements: Record<string, unknown> = { tz: BUSINESS_TIME_ZONE };
  for (const [filter, column] of EQUALITY_FILTERS) {
    if (!filters[filter]) continue;
    clauses.push(`l.${column} = :${filter}`);
    replacements[filter] = filters[filter];
  }
  if (filters.from) {
    // A day starts at Croatian midnight.
    clauses.push(DAY.test(filters.from) ? 'l.created_at >= (CAST(:from AS date) AT TIME ZONE :tz)' : 'l.created_at >= CAST(:from AS timestamptz)');
    replacements.from = filters.from;
  }
  if (filters.to) {
    // A day is inclusive: up to the next Croatian midnight.
    clauses.push(DAY.test(filters.to) ? 'l.created_at < ((CAST(:to AS date) + 1) AT TIME ZONE :tz)' : 'l.created_at <= CAST(:to AS timestamptz)');
    replacements.to = filters.to;
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', replacements };
}

type Row = RowOf<typeof ActivityLog, 'id' | 'action' | 'entity_type' | 'entity_id' | 'user_id' | 'ip_address' | 'details' | 'created_at'> & { user_name: string | null };

/** Newest first, with the acting user's name; `total` counts the same filter (null with `count: false`, for a glance at the newest). */
export async function listActivityLogs(
  filters: ActivityLogFilters,
  options?: { limit?: number; offset?: number; count?: true },
): Promise<{ logs: ActivityLogDto[]; total: number }>;
export async function listActivityLogs(filters: ActivityLogFilters, options: { limit?: number; offset?: number; count: false }): Promise<{ logs: ActivityLogDto[]; total: null }>;
export async function listActivityLogs(
  filters: ActivityLogFilters,
  { limit = 100, offset = 0, count: withCount = true }: { limit?: number; offset?: number; count?: boolean } = {},
): Promise<{ logs: ActivityLogDto[]; total: number | null }> {
  const { where, replacements } = whereOf(filters);
  const { rows, total } = await selectPage<Row>(
    `SELECT l.id, l.action, l.entity_type, l.entity_id, l.user_id, l.ip_address, l.details, l.created_at,
            ${sqlUserName('u')} AS user_name
       FROM activity_logs l LEFT JOIN users u ON u.id = l.user_id
       ${where}
      ORDER BY l.created_at DESC, l.id DESC LIMIT :limit OFFSET :offset`,
    withCount ? `SELECT count(*)::int AS total FROM activity_logs l ${where}` : null,
    { ...replacements, ...pageBounds({ limit, offset }) },
  );
  return {
    logs: rows.map((row) => ({
      id: row.id,
      action: row.action,
      entityType: row.entity_type,
      entityId: row.entity_id,
      userId: row.user_id,
      userName: row.user_name,
      ipAddress: row.ip_address,
      details: row.details ?? {},
      createdAt: iso(row.created_at),
    })),
    total,
  };
}

/** The choices of the monitoring log filters: users who appear in the log, the actions and entity types logged. */
export async function activityLogChoices(): Promise<{ users: { id: string; name: string }[]; actions: string[]; entityTypes: string[] }> {
  const [users, actions, entityTypes] = await Promise.all([
    selectRows<{ id: string; name: string }>(
      `SELECT u.id, coalesce(${sqlUserName('u')}, u.email) AS name
         FROM users u WHERE EXISTS (SELECT 1 FROM activity_logs l WHERE l.user_id = u.id) ORDER BY name`,
    ),
    selectRows<{ action: string }>('SELECT DISTINCT action FROM activity_logs ORDER BY action'),
    selectRows<{ entity_type: string }>('SELECT DISTINCT entity_type FROM activity_logs WHERE entity_type IS NOT NULL ORDER BY entity_type'),
  ]);
  return { users, actions: actions.map((row) => row.action), entityTypes: entityTypes.map((row) => row.entity_type) };
}
