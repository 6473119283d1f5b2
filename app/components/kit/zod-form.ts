import { useForm, type DefaultValue, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import type * as z from 'zod';

/**
 * conform's useForm checked in the browser by the same zod schema the action parses:
 * first on blur, then on every input once a field shows an error; the server's
 * answer comes back as `lastResult`. Without JavaScript the action's check alone stands.
 */
export function useZodForm<Schema extends z.ZodObject>(
  schema: Schema,
  options: { id: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: DefaultValue<z.input<Schema>> },
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    ...options,
    constraint: constraintOf(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

// A schema's constraints (required, min, max, pattern) never change: read once per schema, not on every render of
// every form (the create dialogs render closed on the list pages).
const constraints = new WeakMap<z.ZodObject, ReturnType<typeof getZodConstraint>>();

function constraintOf(schema: z.ZodObject) {
  let constraint = constraints.get(schema);
  if (!constraint) {
    constraint = getZodConstraint(schema);
    constraints.set(schema, constraint);
  }
  return constraint;
}

/** The fields of a `useZodForm` form, for a component that renders them. */
export type ZodFormFields<Schema extends z.ZodObject> = ReturnType<typeof useZodForm<Schema>>[1];
