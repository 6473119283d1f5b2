import { PAYMENT_MESSAGES } from '../payments/schemas.ts';
import { apiError } from '../utils/api.server.ts';
import { readXmlUpload } from '../xml/upload.server.ts';
import { BANK_XML_MESSAGES, MAX_BANK_XML_BYTES } from './xml.server.ts';

/**
 * The body of POST /api/bank-statements (and the page's import form): the
 * XML itself (application/xml, text/xml; ?fileName=) or multipart/form-data
 * with a `file` part. Read as a stream and cut off past 5 MB (413).
 */
export async function readStatementUpload(request: Request): Promise<{ xml: Buffer; fileName: string | null; fields: Record<string, string> }> {
  const raw = /^(application|text)\/xml\b/i.test(request.headers.get('Content-Type') ?? '');
  const { file, fields } = await readXmlUpload(request, { maxBytes: MAX_BANK_XML_BYTES, tooLargeMessage: BANK_XML_MESSAGES.tooLarge });
  if (raw) return { xml: file!.bytes, fileName: file!.fileName, fields: {} };
  // An empty file input still sends a part without bytes.
  if (!file || file.bytes.length === 0) throw apiError(400, PAYMENT_MESSAGES.fileRequired, { errors: { file: [PAYMENT_MESSAGES.fileRequired] } });
  return { xml: file.bytes, fileName: file.fileName, fields };
}
