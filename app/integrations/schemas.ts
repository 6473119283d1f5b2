import * as z from 'zod';
import { isSingleLineText, plainText } from '../utils/validation.ts';
import { INTEGRATION_MODES } from './types.ts';

/** Configure form / PUT /api/integrations/{type} (admin). No server imports here. Messages are refusal codes (docs/decisions/013-error-codes.md). */
export const INTEGRATION_MESSAGES = {
  endpointInvalid: 'integrations.validation.endpointInvalid',
  credentialsInvalid: 'integrations.validation.credentialsInvalid',
  modeInvalid: 'integrations.validation.modeInvalid',
  notFound: 'integrations.validation.notFound',
  periodInvalid: 'integrations.validation.periodInvalid',
} as const;

const CREDENTIAL_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** "key=value" lines (the form's textarea) into a map; null when a line is malformed. */
export function parseCredentialLines(text: string): Record<string, string> | null {
  const result: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf('=');
    if (at <= 0) return null;
    const key = line.slice(0, at).trim();
    if (!CREDENTIAL_KEY.test(key)) return null;
    const value = line.slice(at + 1).trim();
    if (!isSingleLineText(value)) return null;
    result[key] = value;
  }
  return result;
}

const endpoint = plainText(z.string(INTEGRATION_MESSAGES.endpointInvalid).trim(), { message: INTEGRATION_MESSAGES.endpointInvalid })
  .max(2000, INTEGRATION_MESSAGES.endpointInvalid)
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), INTEGRATION_MESSAGES.endpointInvalid);

const credentialsMap = z
  .record(
    z.string().regex(CREDENTIAL_KEY, INTEGRATION_MESSAGES.credentialsInvalid),
    plainText(z.string(INTEGRATION_MESSAGES.credentialsInvalid).max(4000, INTEGRATION_MESSAGES.credentialsInvalid), { message: INTEGRATION_MESSAGES.credentialsInvalid }),
  )
  .refine((map) => Object.keys(map).length <= 20, INTEGRATION_MESSAGES.credentialsInvalid);

/**
 * `credentials` replaces the stored set when given (non-empty); omitted or
 * empty keeps it; `clearCredentials` removes it. `endpoint` '' or null clears it.
 */
export const integrationConfigSchema = z.object({
  endpoint: z.union([endpoint, z.null()]).optional(),
  mode: z.enum(INTEGRATION_MODES, { message: INTEGRATION_MESSAGES.modeInvalid }).optional(),
  isEnabled: z.boolean().optional(),
  credentials: credentialsMap.optional(),
  clearCredentials: z.boolean().optional(),
});
export type IntegrationConfigInput = z.infer<typeof integrationConfigSchema>;

/** The page form's fields (strings from FormData). */
export const integrationConfigFormSchema = z.object({
  endpoint: endpoint.optional(),
  mode: z.enum(INTEGRATION_MODES, { message: INTEGRATION_MESSAGES.modeInvalid }),
  isEnabled: z.preprocess((value) => value === 'on' || value === 'true', z.boolean()),
  credentials: z
    .string()
    .max(20_000, INTEGRATION_MESSAGES.credentialsInvalid)
    .optional()
    .refine((value) => value === undefined || parseCredentialLines(value) !== null, INTEGRATION_MESSAGES.credentialsInvalid),
  clearCredentials: z.preprocess((value) => value === 'on' || value === 'true', z.boolean()),
});

export const hanfaReportSchema = z.object({
  period: z
    .string()
    .trim()
    .regex(/^\d{4}-Q[1-4]$/, INTEGRATION_MESSAGES.periodInvalid),
});
