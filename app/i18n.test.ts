/// <reference types="vite/client" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resources } from './i18n.ts';
import { INVOICE_STATUSES } from '../db/models/enums.ts';

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

// docs/decisions/013-error-codes.md: a refusal code is its i18n key, so every
// code written in the code base needs a text in both languages (the API's
// English message is the en text).
const REFUSAL_CODE = /['"]((?:errors|validation|[a-z]+\.(?:errors|validation|refusals|messages))\.[A-Za-z0-9_.]*[A-Za-z0-9_])['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function textAt(language: 'en' | 'hr', key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), resources[language].common);
}

describe('refusal codes', () => {
  const codes = new Map<string, string>();
  for (const file of sourceFiles(fileURLToPath(new URL('.', import.meta.url)))) {
    for (const match of readFileSync(file, 'utf8').matchAll(REFUSAL_CODE)) codes.set(match[1], file);
  }

  it('finds the codes', () => {
    expect(codes.has('errors.api.notFound')).toBe(true);
    expect(codes.has('limits.validation.notFound')).toBe(true);
  });

  it('every refusal code has an en and an hr text', () => {
    const missing = [...codes].flatMap(([code, file]) =>
      (['en', 'hr'] as const).filter((language) => typeof textAt(language, code) !== 'string').map((language) => `${language}: ${code} (${file})`),
    );
    expect(missing).toEqual([]);
  });
});

describe('invoice statuses', () => {
  it('each has its label in both languages, the text of every invoice badge (docs/lifecycle.md)', () => {
    for (const language of ['en', 'hr'] as const) {
      for (const status of INVOICE_STATUSES) expect(typeof textAt(language, `invoices.status.${status}`), `${language} ${status}`).toBe('string');
    }
    expect([textAt('hr', 'invoices.status.charged_back'), textAt('hr', 'invoices.status.written_off')]).toEqual(['Regresirano', 'Otpisano']);
  });
});
