import { describe, expect, it, vi } from 'vitest';
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
