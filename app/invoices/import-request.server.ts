import type { UploadHandler } from '@remix-run/node';
import { MAX_UBL_BYTES, UBL_MESSAGES } from '../einvoices/ubl-read.server.ts';
import { apiError } from '../utils/api.server.ts';
import { checkedFileName, readMultipartFormData } from '../utils/form-data.server.ts';

/**
 * The body of POST /api/invoices/import, either
 *  - the XML itself (Content-Type application/xml or text/xml) with
 *    ?clientId=…&createCustomer=true&fileName=… in the URL, or
 *  - multipart/form-data with the fields clientId, createCustomer and file.
 * Bodies are read as a stream and cut off past 5 MB (413), so an oversized
 * upload is never held in memory whole.
 */
export interface UblUpload {
  xml: Buffer;
  clientId: string;
  createCustomer: boolean;
  fileName: string | null;
}

const MAX_FIELD_BYTES = 4096;
const tooLarge = () => apiError(413, UBL_MESSAGES.tooLarge, { file: [UBL_MESSAGES.tooLarge] });
const truthy = (value: string | null | undefined) => value === 'true' || value === '1' || value === 'on';

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

export async function readUblUpload(request: Request): Promise<UblUpload> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (Number(request.headers.get('Content-Length') ?? '0') > MAX_UBL_BYTES + 64 * 1024) throw tooLarge();
  if (type === 'application/xml' || type === 'text/xml') {
    const params = new URL(request.url).searchParams;
    return {
      xml: await readCapped(request.body, MAX_UBL_BYTES),
      clientId: params.get('clientId') ?? '',
      createCustomer: truthy(params.get('createCustomer')),
      fileName: checkedFileName(params.get('fileName')),
    };
  }
  if (type === 'multipart/form-data') {
    let file: { bytes: Buffer; fileName: string } | null = null;
    const handler: UploadHandler = async ({ name, filename, data }) => {
      if (filename === undefined) return (await readCapped(data, MAX_FIELD_BYTES)).toString('utf8');
      const bytes = await readCapped(data, MAX_UBL_BYTES);
      // A file input left empty still sends a part with no name and no bytes.
      if (name === 'file' && (bytes.length > 0 || filename)) file = { bytes, fileName: filename };
      return undefined;
    };
    const form = await readMultipartFormData(request, handler);
    const chosen = file as { bytes: Buffer; fileName: string } | null;
    if (!chosen) throw apiError(400, 'An e-invoice XML file is required', { file: ['An e-invoice XML file is required'] });
    return {
      xml: chosen.bytes,
      clientId: String(form.get('clientId') ?? ''),
      createCustomer: truthy(form.get('createCustomer')?.toString()),
      fileName: checkedFileName(chosen.fileName, 'file'),
    };
  }
  throw apiError(415, 'Content-Type must be application/xml, text/xml or multipart/form-data');
}
