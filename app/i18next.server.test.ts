import { createInstance } from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { i18nConfig, resources, supportedLanguages } from './i18n.ts';
import { renderingI18n } from './i18next.server.ts';

describe('renderingI18n (the instance pages render with)', () => {
  it('is one instance per language, and each answers in its own language', async () => {
    const [en, hr] = await Promise.all([renderingI18n('en'), renderingI18n('hr')]);
    expect(await renderingI18n('en')).toBe(en);
    expect(en).not.toBe(hr);
    expect(en.getFixedT(null, 'common')('invoices.card.amount')).toBe('Amount');
    expect(hr.getFixedT(null, 'common')('invoices.card.amount')).toBe('Iznos');
    expect(hr.getFixedT('hr', ['common'])('invoices.card.amount')).toBe('Iznos');
  });

  it("gives every component's useTranslation the same function for its own language, and i18next's for anything else", async () => {
    const [en, hr] = await Promise.all([renderingI18n('en'), renderingI18n('hr')]);
    expect(en.getFixedT(null, 'common')).toBe(en.getFixedT(null, 'common'));
    expect(en.getFixedT('en', ['common'])).toBe(en.getFixedT('en', ['common']));
    expect(en.getFixedT(null, 'common')).not.toBe(hr.getFixedT(null, 'common'));
    expect(en.getFixedT('hr', 'common')('invoices.card.amount')).toBe('Iznos');
    expect(en.getFixedT(null, 'common', 'invoices.card')('amount')).toBe('Amount');
    expect(en.getFixedT(null, 'common', 'invoices.card')).not.toBe(en.getFixedT(null, 'common', 'invoices.card'));
  });

  it('gives the same text on a remembered lookup, and options still interpolate', async () => {
    const en = await renderingI18n('en');
    const t = en.getFixedT(null, 'common');
    expect(t('invoices.card.amount')).toBe('Amount');
    expect(t('invoices.card.amount')).toBe('Amount');
    expect(t('invoices.noMatches', { q: 'R-1' })).toBe('No invoices match “R-1”');
    expect(t('invoices.noMatches', { q: 'R-2' })).toBe('No invoices match “R-2”');
    // Another language asked of the English instance is not answered from its remembered texts.
    expect(t('invoices.card.amount', { lng: 'hr' })).toBe('Iznos');
  });

  it('warns about a missing key every time it is asked for', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const t = (await renderingI18n('en')).getFixedT(null, 'common');
      expect(t('invoices.noSuchKey')).toBe('invoices.noSuchKey');
      expect(t('invoices.noSuchKey')).toBe('invoices.noSuchKey');
      expect(warn.mock.calls.filter(([line]) => String(line).includes('invoices.noSuchKey'))).toHaveLength(2);
    } finally {
      warn.mockRestore();
    }
  });
});

/** Every key of a namespace's texts with its text: 'invoices.card.amount' → 'Amount'. */
function leaves(texts: object, prefix = ''): Array<[string, string]> {
  return Object.entries(texts).flatMap(([key, value]) => (typeof value === 'string' ? [[prefix + key, value] as [string, string]] : leaves(value as object, `${prefix}${key}.`)));
}

describe('the rendering instances answer every text as i18next does', () => {
  // Values that i18next's own interpolation treats specially if anything does: replacement patterns, placeholders and
  // nesting inside a value, the empty string, numbers.
  const samples: Array<string | number> = ['R-2025-000017', '$& $1 $$', '{{q}}', '$t(common.save)', '', 0, -1234.5, 'Čakovec d.o.o.'];

  for (const language of supportedLanguages) {
    it(`in ${language}: every key, with and without values, through getFixedT as pages ask`, async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const reference = createInstance();
        await reference.init({ ...i18nConfig, lng: language, ns: ['common'] });
        const expected = reference.getFixedT(null, 'common');
        const actual = (await renderingI18n(language)).getFixedT(null, 'common');
        const keys = leaves(resources[language].common);
        expect(keys.length).toBeGreaterThan(1000);
        for (const [index, [key, text]] of keys.entries()) {
          const names = [...text.matchAll(/\{\{([^{}]*)\}\}/g)].map((match) => match[1]!.trim());
          const values = Object.fromEntries(names.map((name, at) => [name, samples[(index + at) % samples.length]!]));
          expect(actual(key), key).toBe(expected(key));
          expect(actual(key, values), key).toBe(expected(key, values));
          expect(actual(key, { ...values, count: 2 }), key).toBe(expected(key, { ...values, count: 2 }));
          expect(actual(key, { ...values, defaultValue: 'D' }), key).toBe(expected(key, { ...values, defaultValue: 'D' }));
          if (names.length > 1) {
            const [, ...rest] = names;
            const missingOne = Object.fromEntries(rest.map((name) => [name, 'x']));
            expect(actual(key, missingOne), key).toBe(expected(key, missingOne));
            // A value that spells the next placeholder: i18next replaces that placeholder's first occurrence.
            const spelling = { ...values, [names[0]!]: `{{${names[1]}}}` };
            expect(actual(key, spelling), key).toBe(expected(key, spelling));
          }
        }
        expect(actual('invoices.noSuchKey', { q: 'x' })).toBe(expected('invoices.noSuchKey', { q: 'x' }));
        expect(actual('invoices.noSuchKey', { defaultValue: 'pending_review' })).toBe('pending_review');
      } finally {
        warn.mockRestore();
      }
    });
  }
});
