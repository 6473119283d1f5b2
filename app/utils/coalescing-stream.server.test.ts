import { PassThrough } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createElement, Fragment, Suspense } from 'react';
import { CoalescingStream } from './coalescing-stream.server.ts';

/** Everything `stream` gives, as the chunks it gave them in. */
function chunksOf(stream: NodeJS.ReadableStream): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(chunks));
    stream.on('error', reject);
  });
}

/** A page of `rows` rows, with a Suspense boundary that resolves after the shell when `late` is given. */
function page(rows: number, late?: { promise: Promise<void>; text?: string }) {
  // React 18's way to wait inside a boundary: throw the promise until there is something to show.
  const Late = () => {
    if (late?.text === undefined) throw late!.promise;
    return createElement('p', null, late.text);
  };
  return createElement(
    'main',
    null,
    Array.from({ length: rows }, (_, index) => createElement('div', { key: index, className: 'row' }, `Račun ${index} — 1.234,56 €`)),
    late ? createElement(Suspense, { fallback: createElement('p', null, '…') }, createElement(Late)) : createElement(Fragment),
  );
}

function render(element: ReturnType<typeof page>, destination: NodeJS.WritableStream) {
  const { pipe } = renderToPipeableStream(element, { onShellReady: () => pipe(destination) });
}

describe('CoalescingStream', () => {
  it("passes on React's HTML byte for byte, in one chunk per batch instead of one per 2 KB piece", async () => {
    const plain = new PassThrough();
    const coalesced = new CoalescingStream();
    const [plainChunks, coalescedChunks] = await Promise.all([chunksOf(plain), chunksOf(coalesced), render(page(2000), plain), render(page(2000), coalesced)]);
    const html = Buffer.concat(plainChunks);
    expect(html.length).toBeGreaterThan(100_000);
    expect(Buffer.concat(coalescedChunks).equals(html)).toBe(true);
    expect(plainChunks.length).toBeGreaterThan(40);
    expect(coalescedChunks.length).toBe(1);
  });

  it('sends the shell before a suspended part resolves, then the rest', async () => {
    let resolveLate!: () => void;
    const late: { promise: Promise<void>; text?: string } = { promise: new Promise<void>((resolve) => (resolveLate = resolve)) };
    const coalesced = new CoalescingStream();
    const chunks: string[] = [];
    const shellSent = new Promise<void>((resolve) => coalesced.once('data', () => resolve()));
    coalesced.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const ended = new Promise((resolve) => coalesced.on('end', resolve));
    render(page(50, late), coalesced);
    await shellSent;
    expect(chunks.join('')).toContain('Račun 49');
    expect(chunks.join('')).not.toContain('kasni dio');
    late.text = 'kasni dio';
    resolveLate();
    await ended;
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.join('')).toContain('kasni dio');
  });
});
