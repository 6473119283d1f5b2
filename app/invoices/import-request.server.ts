import { MAX_UBL_BYTES, UBL_MESSAGES } from '../einvoices/ubl-constants.ts';
import { apiError } from '../utils/api.server.ts';
import { readXmlUpload } from '../xml/upload.server.ts';
import { INVOICE_MESSAGES } from './schemas.ts';

/**
 * The body of POST /api/invoices/import, either
 *  - the XML itself (Content-Type application/xml or text/xml) with
 *    ?clientId=…&createCustomer=true&fileName=… in the URL, or
 *  - multipart/form-data with the fields clientId, createCustomer and file.
 * Bodies are read as a stream and cut off past 5 MB (413), so an oversized
 * upload is never held in memory whole (app/xml/upload.server.ts).
 */
export interface UblUpload {
  xml: Buffer;
  clientId: string;
  createCustomer: boolean;
  fileName: string | null;
}

const FILE_REQUIRED = INVOICE_MESSAGES.xmlFileRequired;
const truthy = (value: string | null | undefined) => value === 'true' || value === '1' || value === 'on';

export async function readUblUpload(request: Request): Promise<UblUpload> {
  const { file, fields } = await readXmlUpload(request, { maxBytes: MAX_UBL_BYTES, tooLargeMessage: UBL_MESSAGES.tooLarge });
  // A file input left empty still sends a part with no name and no bytes; a chosen empty file is read (and refused as empty).
  if (!file || (file.bytes.length === 0 && !file.fileName && !/^(application|text)\/xml\b/i.test(request.headers.get('Content-Type') ?? ''))) {
    throw apiError(400, FILE_REQUIRED, { errors: { file: [FILE_REQUIRED] } });
  }
  return { xml: file.bytes, clientId: fields.clientId ?? '', createCustomer: truthy(fields.createCustomer), fileName: file.fileName };
}
