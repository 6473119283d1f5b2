import type { UploadHandler } from '@remix-run/node';
import { apiError } from '../utils/api.server.ts';
import { XML_MESSAGES } from './reader.server.ts';
import { checkedFileName, readMultipartFormData } from '../utils/form-data.server.ts';

/**
 * Reading an uploaded document (a bank statement, an e-invoice) without ever
 * holding more than the cap in memory: the body is read as a stream and cut
 * off with 413 past `maxBytes`; a Content-Length announcing more is refused
 * before reading. Accepted: the document itself (application/xml, text/xml;
 * parameters in the URL) or multipart/form-data with a `file` part and small
 * text fields. Anything else is 415.
 */
export const MAX_FIELD_BYTES = 4096;
/** Multipart framing around the file may add this much to the announced length. */
const MULTIPART_SLACK = 64 * 1024;

/** Every chunk of `stream`, refused with `tooLarge()` as soon as they pass `max` bytes. */
export async function readCappedStream(stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null, max: number, tooLarge: () => Response): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface XmlUpload {
  /** The `file` part (a multipart part with a file name, possibly empty) or the raw body; null when a form had no file part. */
  file: { bytes: Buffer; fileName: string | null } | null;
  /** The text fields of a form, or the URL's query parameters for a raw body. */
  fields: Record<string, string>;
}

/** Reads the upload; `tooLargeMessage` is the 413's text (on the field `file`). */
export async function readXmlUpload(request: Request, options: { maxBytes: number; tooLargeMessage: string }): Promise<XmlUpload> {
  const tooLarge = () => apiError(413, options.tooLargeMessage, { errors: { file: [options.tooLargeMessage] } });
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (Number(request.headers.get('Content-Length') ?? '0') > options.maxBytes + MULTIPART_SLACK) throw tooLarge();
  if (type === 'application/xml' || type === 'text/xml') {
    const params = new URL(request.url).searchParams;
    const bytes = await readCappedStream(request.body, options.maxBytes, tooLarge);
    return { file: { bytes, fileName: checkedFileName(params.get('fileName')) }, fields: Object.fromEntries(params) };
  }
  if (type === 'multipart/form-data') {
    let file: XmlUpload['file'] = null;
    const fields: Record<string, string> = {};
    const handler: UploadHandler = async ({ name, filename, data }) => {
      if (filename === undefined) {
        fields[name] = (await readCappedStream(data, MAX_FIELD_BYTES, tooLarge)).toString('utf8');
        return undefined;
      }
      const bytes = await readCappedStream(data, options.maxBytes, tooLarge);
      if (name === 'file') file = { bytes, fileName: filename };
      return undefined;
    };
    await readMultipartFormData(request, handler);
    const chosen = file as XmlUpload['file'];
    return { file: chosen && { bytes: chosen.bytes, fileName: checkedFileName(chosen.fileName, 'file') }, fields };
  }
  throw apiError(415, XML_MESSAGES.wrongContentType);
}
