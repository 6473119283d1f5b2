/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { resources } from './i18n.ts';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}
// Croatian has a 'few' plural form English lacks; compare the base keys.
const base = (key: string) => key.replace(/_(one|few|other)$/, '');

describe('locales', () => {
  it('English and Croatian have the same keys', () => {
    const en = new Set(keys(resources.en.common).map(base));
    const hr = new Set(keys(resources.hr.common).map(base));
    expect([...en].filter((key) => !hr.has(key))).toEqual([]);
    expect([...hr].filter((key) => !en.has(key))).toEqual([]);
  });

  it('no two area files define the same top-level key (one would silently hide the other)', async () => {
    for (const language of ['en', 'hr']) {
      const files = import.meta.glob('./locales/*/*.json', { eager: true, import: 'default' }) as Record<string, object>;
      const owners = new Map<string, string>();
      for (const [file, content] of Object.entries(files).filter(([file]) => file.includes(`/${language}/`))) {
        for (const key of Object.keys(content)) {
          expect(owners.get(key), `${key} is in ${owners.get(key)} and ${file}`).toBeUndefined();
          owners.set(key, file);
        }
      }
    }
  });
});
