import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAVIGATION, titleKeyForPath } from '../components/navigation.ts';
import { supportedLanguages } from '../i18n.ts';
import { pageTitle, translate } from './meta.ts';

const routesDir = path.join(path.dirname(new URL(import.meta.url).pathname), '../routes');

/** Every key a route passes to pageTitle, read from the route modules. */
function titleKeys(): string[] {
  const keys = new Set<string>();
  for (const name of fs.readdirSync(routesDir)) {
    if (!name.endsWith('.tsx')) continue;
    for (const match of fs.readFileSync(path.join(routesDir, name), 'utf8').matchAll(/pageTitle\(matches, '([\w.]+)'/g)) keys.add(match[1]);
  }
  for (const item of NAVIGATION.flatMap((group) => group.items)) keys.add(item.label);
  for (const page of ['/profile', '/settings', '/search', '/integrations']) keys.add(titleKeyForPath(page));
  return [...keys].sort();
}

describe('page titles', () => {
  it('are in the reader’s language, with the record’s own name when the page shows one', () => {
    const root = (locale: string) => [{ id: 'root', data: { locale } }] as never;
    expect(pageTitle(root('hr'), 'nav.clients')).toEqual([{ title: `${translate('hr', 'nav.clients')} · FinFlow` }]);
    expect(pageTitle(root('en'), 'nav.clients')).not.toEqual(pageTitle(root('hr'), 'nav.clients'));
    expect(pageTitle(root('hr'), 'clients.detail.metaTitle', 'Primjer d.o.o.')).toEqual([{ title: 'Primjer d.o.o. · FinFlow' }]);
    expect(pageTitle(root('xx'), 'clients.detail.metaTitle', '  ')).toEqual([{ title: `${translate('en', 'clients.detail.metaTitle')} · FinFlow` }]);
    expect(translate('en', 'tasks.total', { count: 3 })).toBe('tasks.total');
  });

  it('every title key a page uses has a text in each language', () => {
    const keys = titleKeys();
    expect(keys.length).toBeGreaterThan(15);
    for (const language of supportedLanguages) {
      const missing = keys.filter((key) => translate(language, key) === key);
      expect(missing, `${language}: title keys without a text`).toEqual([]);
    }
  });
});
