import type { UploadHandler } from '@remix-run/node';
import { PAYMENT_MESSAGES } from '../payments/schemas.ts';
import { apiError } from '../utils/api.server.ts';
import { checkedFileName, readMultipartFormData } from '../utils/form-data.server.ts';
import { MAX_BANK_XML_BYTES, XML_MESSAGES } from './xml.server.ts';

/**
 * The body of POST /api/bank-statements (and the page's import form): the
 * XML itself (application/xml, text/xml; ?fileName=) or multipart/form-data
 * with a `file` part. Read as a stream and cut off past 5 MB (413).
 */
const tooLarge = () => apiError(413, XML_MESSAGES.tooLarge, { file: [XML_MESSAGES.tooLarge] });

async function readCapped(stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null, max: number): Promise<Buffer> {
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

export async function readStatementUpload(request: Request): Promise<{ xml: Buffer; fileName: string | null; fields: Record<string, string> }> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (Number(request.headers.get('Content-Length') ?? '0') > MAX_BANK_XML_BYTES + 64 * 1024) throw tooLarge();
  if (type === 'application/xml' || type === 'text/xml') {
    const fileName = checkedFileName(new URL(request.url).searchParams.get('fileName'));
    return { xml: await readCapped(request.body, MAX_BANK_XML_BYTES), fileName, fields: {} };
  }
  if (type === 'multipart/form-data') {
    let file: { bytes: Buffer; fileName: string } | null = null;
    const fields: Record<string, string> = {};
    const handler: UploadHandler = async ({ name, filename, data }) => {
      if (filename === undefined) {
        fields[name] = (await readCapped(data, 4096)).toString('utf8');
        return undefined;
      }
      const bytes = await readCapped(data, MAX_BANK_XML_BYTES);
      // An empty file input still sends a part without bytes.
      if (name === 'file' && bytes.length > 0) file = { bytes, fileName: filename };
      return undefined;
    };
    await readMultipartFormData(request, handler);
    const chosen = file as { bytes: Buffer; fileName: string } | null;
    if (!chosen) throw apiError(400, PAYMENT_MESSAGES.fileRequired, { file: [PAYMENT_MESSAGES.fileRequired] });
    return { xml: chosen.bytes, fileName: checkedFileName(chosen.fileName, 'file'), fields };
  }
  throw apiError(415, 'Content-Type must be application/xml, text/xml or multipart/form-data');
}
