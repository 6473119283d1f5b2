import { PassThrough } from 'node:stream';
import { createElement, Suspense } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderDocument } from './document-bytes.server.ts';

/** React's own streamed output of `element`, for comparison. */
function streamed(element: React.ReactElement): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    sink.on('end', () => resolve(Buffer.concat(chunks)));
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(sink), onShellError: reject });
  });
}

const rows = (count: number) => Array.from({ length: count }, (_, index) => createElement('div', { key: index, className: 'row' }, `Račun ${index} — 1.234,56 € · đak`));

describe('renderDocument', () => {
  it("gives React's streamed HTML byte for byte, as one Buffer", async () => {
    const page = createElement('main', null, rows(2000));
    const { body, failed } = await renderDocument(page, { timeoutMs: 5_000 });
    expect(body.length).toBeGreaterThan(100_000);
    expect(body.equals(await streamed(page))).toBe(true);
    expect(body.toString('utf8')).toContain('Račun 1999 — 1.234,56 € · đak');
    expect(failed).toBe(false);
  });

  it('waits for a suspended part and includes it', async () => {
    const late: { promise: Promise<void>; text?: string } = { promise: new Promise<void>((resolve) => setTimeout(() => ((late.text = 'kasni dio'), resolve()), 20)) };
    const Late = () => {
      if (late.text === undefined) throw late.promise;
      return createElement('p', null, late.text);
    };
    const page = createElement('main', null, rows(3), createElement(Suspense, { fallback: createElement('p', null, 'čeka…') }, createElement(Late)));
    const html = (await renderDocument(page, { timeoutMs: 5_000 })).body.toString('utf8');
    expect(html).toContain('kasni dio');
    expect(html).not.toContain('čeka…');
  });

  it('gives a part that does not resolve in time its fallback and marks the page failed', async () => {
    const Never = () => {
      throw new Promise(() => {});
    };
    const page = createElement('main', null, createElement(Suspense, { fallback: createElement('p', null, 'čeka…') }, createElement(Never)));
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (error: unknown) => errors.push(error);
    try {
      const { body, failed } = await renderDocument(page, { timeoutMs: 50 });
      expect(body.toString('utf8')).toContain('čeka…');
      expect(failed).toBe(true);
      expect(errors.length).toBeGreaterThanOrEqual(1);
    } finally {
      console.error = original;
    }
  });

  it('rejects when the page itself cannot render, so Remix renders its error boundary', async () => {
    const Broken = () => {
      throw new Error('pokvareno');
    };
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (error: unknown) => errors.push(error);
    try {
      await expect(renderDocument(createElement(Broken), { timeoutMs: 5_000 })).rejects.toThrow('pokvareno');
      // Remix logs it once, with the request; React's own development warnings aside, nothing here logs it again.
      expect(errors.filter((error) => error instanceof Error && error.message === 'pokvareno')).toEqual([]);
    } finally {
      console.error = original;
    }
  });
});
