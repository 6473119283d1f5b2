import { EventEmitter } from 'node:events';
import { renderToPipeableStream } from 'react-dom/server';

/**
 * A page's HTML as one Buffer, rendered by React's Node renderer. React writes
 * its output as UTF-8 pieces of up to 2 KB; they are kept here and joined once.
 * Measured on the pages (docs/benchmarks.md): passing the pieces through a Node
 * stream, the Response's web stream and a read loop cost more than the page
 * gains from being sent early (FinFlow's pages have no suspended parts, so the
 * whole page is ready when its first part is), and `renderToString` builds
 * one long string whose UTF-8 encoding costs about three times React's own
 * piecewise encoding once the text holds a letter beyond Latin-1 (č, š, ž, đ).
 * A suspended part, should a page gain one, is waited for, not dropped.
 */
export function renderDocument(element: React.ReactElement, { timeoutMs }: { timeoutMs: number }): Promise<{ body: Buffer<ArrayBuffer>; failed: boolean }> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let shellReady = false;
    const { pipe, abort } = renderToPipeableStream(element, {
      onShellReady() {
        shellReady = true;
      },
      onAllReady() {
        pipe(
          new PieceCollector((body) => {
            clearTimeout(timer);
            resolve({ body, failed });
          }) as unknown as NodeJS.WritableStream,
        );
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      // An error inside a boundary after the shell: React renders the boundary's fallback and the page answers 500.
      // One before it rejects instead, and Remix logs it while rendering its error boundary.
      onError(error: unknown) {
        failed = true;
        if (shellReady) console.error(error);
      },
    });
    // A part that never resolves gets its fallback (onAllReady then fires) rather than holding the request.
    const timer = setTimeout(abort, timeoutMs);
  });
}

/** The destination React's `pipe` needs: `write`, `end` and the events it listens to; everything is kept in memory. */
class PieceCollector extends EventEmitter {
  private pieces: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly done: (body: Buffer<ArrayBuffer>) => void) {
    super();
  }

  write(piece: Uint8Array) {
    this.pieces.push(piece);
    this.size += piece.byteLength;
    return true;
  }

  end() {
    // concat copies into a new (never shared) ArrayBuffer.
    this.done(Buffer.concat(this.pieces, this.size) as Buffer<ArrayBuffer>);
  }
}
