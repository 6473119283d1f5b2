import { parseXml, type XmlElement } from '../xml/reader.server.ts';

/**
 * Bank XML (camt.053 in, our own pain.001 read back by the export check)
 * through the one safe reader (app/xml/reader.server.ts) with the bank
 * statement's size cap and texts.
 */
export const MAX_BANK_XML_BYTES = 5 * 1024 * 1024;

export const BANK_XML_MESSAGES = {
  tooLarge: 'Bank statement XML is larger than 5 MB',
  encoding: 'Bank statement XML must be UTF-8 encoded',
  empty: 'Bank statement XML is empty',
} as const;

export function parseBankXml(input: Buffer | string): XmlElement {
  return parseXml(input, { maxBytes: MAX_BANK_XML_BYTES, messages: BANK_XML_MESSAGES });
}
