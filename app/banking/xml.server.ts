import { parseXml, type XmlElement } from '../xml/reader.server.ts';

/**
 * Bank XML (camt.053 in, our own pain.001 read back by the export check)
 * through the one safe reader (app/xml/reader.server.ts) with the bank
 * statement's size cap and texts.
 */
export const MAX_BANK_XML_BYTES = 5 * 1024 * 1024;

export const BANK_XML_MESSAGES = {
  tooLarge: 'payments.bank.refusals.tooLarge',
  encoding: 'payments.bank.refusals.encoding',
  encodingDeclared: 'payments.bank.refusals.encodingDeclared',
  empty: 'payments.bank.refusals.empty',
} as const;

/** The statement's refusals (docs/decisions/013-error-codes.md): `where` is the element path, `value` the value as found. */
export const BANK_REFUSALS = {
  invalidDate: 'payments.bank.refusals.invalidDate',
  invalidAmount: 'payments.bank.refusals.invalidAmount',
  invalidCurrency: 'payments.bank.refusals.invalidCurrency',
  notCamt053: 'payments.bank.refusals.notCamt053',
  oneStatement: 'payments.bank.refusals.oneStatement',
  statementIdRequired: 'payments.bank.refusals.statementIdRequired',
  ibanInvalid: 'payments.bank.refusals.ibanInvalid',
  amountRequired: 'payments.bank.refusals.amountRequired',
  debtorNameTooLong: 'payments.bank.refusals.debtorNameTooLong',
  debtorIbanTooLong: 'payments.bank.refusals.debtorIbanTooLong',
  batchAmountRequired: 'payments.bank.refusals.batchAmountRequired',
  entryAmountNotPositive: 'payments.bank.refusals.entryAmountNotPositive',
  messageIdTooLong: 'payments.bank.refusals.messageIdTooLong',
  wrongAccount: 'payments.bank.refusals.wrongAccount',
  importRunning: 'payments.bank.refusals.importRunning',
} as const;

export function parseBankXml(input: Buffer | string): XmlElement {
  return parseXml(input, { maxBytes: MAX_BANK_XML_BYTES, messages: BANK_XML_MESSAGES });
}
