import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { TextField } from '@radix-ui/themes';
import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { LightButton, LinkButton, Stack } from './light.tsx';

/**
 * A list's search: a GET form (so it works without JavaScript) named by
 * `label`, with the search field, the page's filters (`children`), Search, a
 * 'Clear' link while something is searched or filtered (`clear`), and what
 * follows in the row (`after`, e.g. the total). `keep` are the URL values
 * the search keeps (the open tab); an empty one stays out of the URL.
 */
export function SearchBar({
  label,
  placeholder,
  q,
  keep = {},
  submitLabel,
  clear,
  minWidth,
  grow,
  after,
  children,
}: {
  label?: string;
  placeholder: string;
  q: string;
  keep?: Record<string, string | null | undefined>;
  submitLabel: string;
  clear?: { to: string; label: string } | null;
  minWidth?: number;
  /** The field takes the room the row leaves. */
  grow?: boolean;
  after?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Form method="get" role="search" aria-label={label}>
      {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <Stack gap="2" align="center" wrap="wrap">
        <TextField.Root name="q" type="search" defaultValue={q} placeholder={placeholder} aria-label={label ?? placeholder} style={{ minWidth, flexGrow: grow ? 1 : undefined }}>
          <TextField.Slot>
            <MagnifyingGlassIcon />
          </TextField.Slot>
        </TextField.Root>
        {children}
        <LightButton variant="soft">{submitLabel}</LightButton>
        {clear ? (
          <LinkButton to={clear.to} variant="ghost" color="gray">
            {clear.label}
          </LinkButton>
        ) : null}
        {after}
      </Stack>
    </Form>
  );
}

/**
 * A filter of a search bar: a native select named by `label` (aria-label;
 * there is no room for a label above it), its options as children. The key
 * resets it when the URL's value changes after a navigation.
 */
export function FilterSelect({
  name,
  label,
  value,
  onChange,
  testId,
  children,
}: {
  name: string;
  label: string;
  value: string;
  /** With JavaScript a changed filter can submit its form at once. */
  onChange?: (event: React.ChangeEvent<HTMLSelectElement>) => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <select name={name} defaultValue={value} key={`${name}-${value}`} aria-label={label} className="native-select" onChange={onChange} data-testid={testId}>
      {children}
    </select>
  );
}
