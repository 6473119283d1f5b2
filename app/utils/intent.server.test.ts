import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import * as z from 'zod';
import { i18nConfig } from '../i18n.ts';
import { readIntent, unknownIntent } from './intent.server.ts';
import { englishText, refusalText } from './refusals.ts';

const schema = z.discriminatedUnion('intent', [z.object({ intent: z.literal(['start', 'stop']), id: z.string() }), z.object({ intent: z.literal('create') })]);

const form = (entries: [string, string | Blob][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe('readIntent', () => {
  it("reads the page's intents with their own fields", () => {
    expect(
      readIntent(
        form([
          ['intent', 'start'],
          ['id', 'a'],
        ]),
        schema,
      ),
    ).toEqual({ intent: 'start', id: 'a' });
    expect(
      readIntent(
        form([
          ['intent', 'create'],
          ['title', 'x'],
        ]),
        schema,
      ),
    ).toEqual({ intent: 'create' });
  });

  it('is null for an unknown or missing intent, or an intent without its fields', () => {
    expect(readIntent(form([['intent', 'delete']]), schema)).toBeNull();
    expect(readIntent(form([]), schema)).toBeNull();
    expect(readIntent(form([['intent', 'stop']]), schema)).toBeNull();
  });

  it('takes the first of repeated fields and ignores files', () => {
    expect(
      readIntent(
        form([
          ['intent', 'create'],
          ['intent', 'start'],
        ]),
        schema,
      ),
    ).toEqual({ intent: 'create' });
    expect(readIntent(form([['intent', new Blob(['create'])]]), schema)).toBeNull();
  });
});

describe('unknownIntent', () => {
  it("answers 400 with its refusal code, shown in the reader's language", async () => {
    const response = unknownIntent();
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({ status: 400, code: 'errors.form.unknownIntent', params: {}, message: 'errors.form.unknownIntent' });
    expect(englishText(body.code)).toBe('Unknown intent');
    const hr = createInstance({ ...i18nConfig, lng: 'hr', initImmediate: false, saveMissing: false });
    await hr.init();
    expect(refusalText(hr.t, (key) => hr.exists(key), body.message)).toBe('Nepoznata radnja');
  });
});
