import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readIntent, unknownIntent } from './intent.server.ts';

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
  it('answers 400 with the message the pages gave before', async () => {
    const response = unknownIntent();
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Unknown intent' });
  });
});
