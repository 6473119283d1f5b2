import * as z from 'zod';
import { textSchema } from '../utils/validation.ts';

/**
 * Dunning to the debtor (docs/collections.md#dunning): the reminder levels
 * the admin sets on /settings and the manager's hold on an invoice's
 * reminders (the invoice page and PUT /api/invoices/{id}/dunning-hold).
 * Shared by the browser (conform) and the server; messages are refusal codes
 * (docs/decisions/013-error-codes.md).
 */
export const DUNNING_ERRORS = {
  daysInvalid: 'dunning.errors.daysInvalid',
  daysNotIncreasing: 'dunning.errors.daysNotIncreasing',
  holdInvalid: 'dunning.errors.holdInvalid',
  reasonRequired: 'dunning.errors.reasonRequired',
  reasonTooLong: 'dunning.errors.reasonTooLong',
  invoiceNotFound: 'dunning.errors.invoiceNotFound',
  alreadyOnHold: 'dunning.errors.alreadyOnHold',
  notOnHold: 'dunning.errors.notOnHold',
  notDunnable: 'dunning.errors.notDunnable',
  noPaymentReference: 'dunning.errors.noPaymentReference',
} as const;

/** The four levels, in order; each has its own template (email trigger `dunning_<level>`). */
export const DUNNING_LEVEL_NUMBERS = [1, 2, 3, 4] as const;
export type DunningLevelNumber = (typeof DUNNING_LEVEL_NUMBERS)[number];

export interface DunningLevel {
  level: DunningLevelNumber;
  /** Days relative to the due date: -5 is five days before it, 0 the due day, 7 a week after. */
  days: number;
  enabled: boolean;
}

/** Until an admin changes them (docs/collections.md#dunning). */
export const DEFAULT_DUNNING_LEVELS: readonly DunningLevel[] = [
  { level: 1, days: -5, enabled: true },
  { level: 2, days: 0, enabled: true },
  { level: 3, days: 7, enabled: true },
  { level: 4, days: 30, enabled: true },
];

/** A level's day lies within a year either side of the due date. */
export const MAX_LEVEL_DAYS = 365;

const daysField = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() : value),
  z
    .union(
      [
        z
          .string()
          .regex(/^[+-]?\d{1,3}$/, { message: DUNNING_ERRORS.daysInvalid })
          .transform(Number),
        z.number(),
      ],
      { error: DUNNING_ERRORS.daysInvalid },
    )
    .pipe(
      z
        .number({ error: DUNNING_ERRORS.daysInvalid })
        .int({ message: DUNNING_ERRORS.daysInvalid })
        .min(-MAX_LEVEL_DAYS, { message: DUNNING_ERRORS.daysInvalid })
        .max(MAX_LEVEL_DAYS, { message: DUNNING_ERRORS.daysInvalid }),
    ),
);

/** A checkbox posts 'on' when ticked and nothing otherwise; JSON may send a boolean. */
const enabledField = z.preprocess((value) => value === true || value === 'on' || value === 'true', z.boolean());

/**
 * /settings, intent dunning-levels: each level's days and whether it is sent. The days must rise strictly from level
 * 1 to 4 (disabled levels included, so switching one on again never breaks the order).
 */
export const dunningLevelsSettingSchema = z
  .object({
    intent: z.literal('dunning-levels'),
    level1Days: daysField,
    level1Enabled: enabledField,
    level2Days: daysField,
    level2Enabled: enabledField,
    level3Days: daysField,
    level3Enabled: enabledField,
    level4Days: daysField,
    level4Enabled: enabledField,
  })
  .superRefine((value, ctx) => {
    const days = [value.level1Days, value.level2Days, value.level3Days, value.level4Days];
    for (let index = 1; index < days.length; index += 1) {
      if (days[index] <= days[index - 1]) ctx.addIssue({ code: 'custom', message: DUNNING_ERRORS.daysNotIncreasing, path: [`level${index + 1}Days`] });
    }
  })
  .transform((value): DunningLevel[] =>
    DUNNING_LEVEL_NUMBERS.map((level) => ({
      level,
      days: value[`level${level}Days`],
      enabled: value[`level${level}Enabled`],
    })),
  );

/** The form's field values of stored levels (the settings form's defaults). */
export function levelsFormValues(levels: readonly DunningLevel[]): Record<string, string> {
  const values: Record<string, string> = { intent: 'dunning-levels' };
  for (const level of levels) {
    values[`level${level.level}Days`] = String(level.days);
    if (level.enabled) values[`level${level.level}Enabled`] = 'on';
  }
  return values;
}

/**
 * PUT /api/invoices/{id}/dunning-hold {hold, reason} and the invoice page's hold form (intent dunning-hold): putting
 * an invoice on hold needs a reason; lifting it takes an optional note.
 */
export const dunningHoldSchema = z
  .object({
    hold: z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], { error: DUNNING_ERRORS.holdInvalid }),
    reason: z.preprocess((value) => (value === null ? undefined : value), textSchema(DUNNING_ERRORS.reasonTooLong, { max: 5000, multiline: true }).optional()),
  })
  .superRefine((value, ctx) => {
    if (value.hold && !value.reason) ctx.addIssue({ code: 'custom', message: DUNNING_ERRORS.reasonRequired, path: ['reason'] });
  })
  .transform((value) => ({ hold: value.hold, reason: value.reason ? value.reason : null }));
export type DunningHoldInput = z.input<typeof dunningHoldSchema>;
