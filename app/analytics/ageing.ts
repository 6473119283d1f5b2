import * as z from 'zod';
import { calendarDateSchema, UUID_PATTERN } from '../utils/validation.ts';

/**
 * The ageing report's terms and request schemas, shared by the server (the
 * API, the exports) and the browser (the /analytics ageing tab); no server
 * imports here. The rules are in docs/collections.md#ageing.
 */

/** Days past due on the as-of day, in these buckets; the order is the report's columns. */
export const AGEING_BUCKETS = ['notDue', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];

/**
 * Each bucket's days past due (as-of day − due date), both ends included;
 * null is open-ended. Not due is 0 and below: an invoice due on the as-of day
 * is not yet late.
 */
export const AGEING_BUCKET_DAYS: Record<AgeingBucket, { from: number | null; to: number | null }> = {
  notDue: { from: null, to: 0 },
  days1to30: { from: 1, to: 30 },
  days31to60: { from: 31, to: 60 },
  days61to90: { from: 61, to: 90 },
  over90: { from: 91, to: null },
};

/** Rows of the report and of the drill-down per page on /analytics. */
export const AGEING_PAGE_SIZE = 25;

/** The report's rows: per client (seller) or per customer (debtor). */
export const AGEING_BY = ['client', 'customer'] as const;
export type AgeingBy = (typeof AGEING_BY)[number];

export const AGEING_ERRORS = {
  asOfInvalid: 'analytics.ageing.errors.asOfInvalid',
  asOfFuture: 'analytics.ageing.errors.asOfFuture',
  byInvalid: 'analytics.ageing.errors.byInvalid',
  bucketInvalid: 'analytics.ageing.errors.bucketInvalid',
  partyInvalid: 'analytics.ageing.errors.partyInvalid',
  partyNotFound: 'analytics.ageing.errors.partyNotFound',
} as const;

/** An absent or blank parameter is the default; a present but wrong one is refused (docs/CONVENTIONS.md). */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** GET /api/analytics/ageing and its exports: ?asOf=YYYY-MM-DD (default today in Croatia) & by=client|customer (default client). */
export const ageingQuerySchema = z.object({
  asOf: z.preprocess(blankToUndefined, calendarDateSchema(AGEING_ERRORS.asOfInvalid).optional()),
  by: z.preprocess(blankToUndefined, z.enum(AGEING_BY, { error: AGEING_ERRORS.byInvalid }).default('client')),
});

/** GET /api/analytics/ageing/invoices: the report's query, the row's party (a client or customer id) and optionally one bucket (none: the row's total). */
export const ageingInvoicesQuerySchema = ageingQuerySchema.extend({
  partyId: z
    .string({ error: AGEING_ERRORS.partyInvalid })
    .trim()
    .regex(UUID_PATTERN, AGEING_ERRORS.partyInvalid)
    .transform((id) => id.toLowerCase()),
  bucket: z.preprocess(blankToUndefined, z.enum(AGEING_BUCKETS, { error: AGEING_ERRORS.bucketInvalid }).optional()),
});
