import { describe, expect, it } from 'vitest';
import { listHref, MAX_PAGE, optionalChoiceSchema, pageBounds, pageCount, pageOffset, readListUrl, tabSchema } from './list-url.ts';

const TABS = tabSchema(['all', 'pending', 'done'], 'all');
const read = (search: string) => readListUrl(new URL(`http://finflow.test/list${search}`));

describe('readListUrl', () => {
  it('reads q, tab, page and the create panel', () => {
    const url = read('?q=%20Acme%20&tab=pending&page=3&new=1');
    expect(url.q).toBe('Acme');
    expect(url.read(TABS)).toBe('pending');
    expect(url.page).toBe(3);
    expect(url.showNew).toBe(true);
  });

  it('falls back to the defaults for missing and invalid values', () => {
    const empty = read('');
    expect([empty.q, empty.read(TABS), empty.page, empty.showNew]).toEqual(['', 'all', 1, false]);
    const bad = read('?tab=archived&page=abc&new=yes');
    expect([bad.read(TABS), bad.page, bad.showNew]).toEqual(['all', 1, false]);
    expect(read('?page=0').page).toBe(1);
    expect(read('?page=-4').page).toBe(1);
    expect(read('?page=2.9').page).toBe(2);
    expect(read('?page=99999999999').page).toBe(MAX_PAGE);
    expect(read('?page=Infinity').page).toBe(MAX_PAGE);
  });

  it('caps the search at 255 characters', () => {
    expect(read(`?q=${'a'.repeat(300)}`).q).toHaveLength(255);
  });

  it('reads a second pager, filters and record ids', () => {
    const url = read('?cpage=4&category=high&details=6F1C2A9E-0000-4000-8000-00000000000A&edit=nope');
    expect(url.pageOf('cpage')).toBe(4);
    expect(url.pageOf('other')).toBe(1);
    expect(url.read(optionalChoiceSchema(['low', 'high']), 'category')).toBe('high');
    expect(url.read(optionalChoiceSchema(['low', 'high']), 'type')).toBeNull();
    expect(read('?category=extreme').read(optionalChoiceSchema(['low', 'high']), 'category')).toBeNull();
    expect(url.id('details')).toBe('6f1c2a9e-0000-4000-8000-00000000000a');
    expect(url.id('edit')).toBeNull();
    expect(url.id('missing')).toBeNull();
  });

  it('takes a Request or the search parameters as well', () => {
    expect(readListUrl(new Request('http://finflow.test/x?page=2')).page).toBe(2);
    expect(readListUrl(new URLSearchParams('q=x')).q).toBe('x');
  });
});

describe('pages', () => {
  it('counts at least one page and offsets from page 1', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(41, 20)).toBe(3);
    expect(pageOffset(3, 20)).toBe(40);
  });
});

describe('pageBounds', () => {
  it('keeps a domain list to 1–1000 rows from a whole offset ≥ 0', () => {
    expect(pageBounds({})).toEqual({ limit: 100, offset: 0 });
    expect(pageBounds({ limit: 5000, offset: -3 })).toEqual({ limit: 1000, offset: 0 });
    expect(pageBounds({ limit: 0.5, offset: 20.9 })).toEqual({ limit: 1, offset: 20 });
  });
});

describe('listHref', () => {
  const tasks = (state: Record<string, string | number | undefined>, extra?: Record<string, string>) => listHref('/tasks', state, { priority: 'all', tab: 'all', page: 1 }, extra);

  it('writes what differs from the defaults, in order, then the extras; the bare path when nothing does', () => {
    expect(tasks({ q: '', priority: 'all', tab: 'all', page: 1 })).toBe('/tasks');
    expect(tasks({ q: 'Žuta d.o.o.', priority: 'high', tab: 'all', page: undefined })).toBe('/tasks?q=%C5%BDuta+d.o.o.&priority=high');
    expect(tasks({ q: '', priority: 'all', tab: 'done', page: 2 }, { new: '1' })).toBe('/tasks?tab=done&page=2&new=1');
  });

  it('reads back as it was written', () => {
    const url = readListUrl(new URL(`http://finflow.test${tasks({ q: 'a&b=c', tab: 'pending', page: 4 })}`));
    expect([url.q, url.read(TABS), url.page]).toEqual(['a&b=c', 'pending', 4]);
  });
});
