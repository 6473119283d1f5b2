import { Form, type FormProps } from '@remix-run/react';

/**
 * A form posting one intent to the page's action, with its hidden values (the
 * record it acts on) in the order given: a button or a short form that works
 * without JavaScript. The same markup as writing the form and its hidden
 * inputs out; the other props go to the form.
 */
export function IntentForm({ intent, values = {}, children, ...props }: Omit<FormProps, 'method'> & { intent: string; values?: Record<string, string> }) {
  return (
    <Form method="post" {...props}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}
