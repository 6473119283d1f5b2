import { json } from '@remix-run/node';
import type * as z from 'zod';
import { encodeRefusal } from './refusals.ts';

/**
 * A page action's `intent`, read by the page's zod discriminated union on
 * `intent` (one per page, in its area's schemas.ts) instead of comparing
 * strings by hand. Only the single-value text fields are offered to the
 * schema: each intent's own form is parsed by its own schema afterwards.
 */
export function readIntent<T extends { intent: string }>(formData: FormData, schema: z.ZodType<T>): T | null {
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) if (typeof value === 'string' && !(name in fields)) fields[name] = value;
  const parsed = schema.safeParse(fields);
  return parsed.success ? parsed.data : null;
}

/**
 * The answer to a post whose intent the page does not know: a refusal by code
 * (docs/decisions/013-error-codes.md), `message` encoded as a page shows it.
 */
export function unknownIntent() {
  const code = 'errors.form.unknownIntent';
  return json({ status: 400, code, params: {}, message: encodeRefusal(code) }, { status: 400 });
}
