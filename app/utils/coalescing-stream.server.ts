import { Transform, type TransformCallback } from 'node:stream';

/**
 * A page's HTML on its way to the socket. React's renderer writes it in pieces of at most 2 KB, and each piece went
 * through the stream, the web ReadableStream of the Response and a socket write of its own: the socket writes alone
 * were 4–7 % of a page's server CPU in the bench's profile. This holds the pieces and passes them on as one when React
 * has finished a batch — its Node renderer calls `flush()` on its destination after each batch it writes, as it does
 * for compression streams — and at the end. The bytes are the same; only their grouping changes.
 */
export class CoalescingStream extends Transform {
  private pending: Buffer[] = [];
  private size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending.push(chunk);
    this.size += chunk.length;
    callback();
  }

  /** Passes on what is held, as one chunk. */
  flush() {
    if (this.size === 0) return;
    this.push(this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.size));
    this.pending = [];
    this.size = 0;
  }

  override _flush(callback: TransformCallback) {
    this.flush();
    callback();
  }
}
