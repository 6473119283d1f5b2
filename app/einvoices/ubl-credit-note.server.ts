import { isValidOib } from '../utils/validation.ts';
import { documentKindOf, readDocument, type PartyView } from './en16931-document.server.ts';
import { checkEInvoiceRules } from './en16931-rules.server.ts';
import { OIB_SCHEME_ID } from './ubl-constants.ts';
import { ruleRefusal, type Problem } from './ubl-document.server.ts';
import { all, parseUblXml } from './ubl-xml.server.ts';

/**
 * Intake of a client's credit note, the document alone: a UBL 2.1 CreditNote
 * (type 381, a commercial credit note) conforming to EN 16931 and the
 * Croatian CIUS, that names the invoice it credits (BG-3: BT-25, BT-26).
 * Every rule of the one rules engine runs over it except FinFlow's promises
 * about what it writes (en16931-rules.server.ts, 'creditNoteIntake'); a
 * refusal names each failing rule, as the invoice intake does. What it
 * credits is app/dilution/ubl-intake.server.ts.
 */
export interface UblCreditNote {
  number: string;
  issueDate: string;
  currency: string;
  /** The amount credited (BT-115, stated positive in a credit note), in cents. */
  amountCents: number;
  /** Its notes (BT-22): why it was issued. */
  notes: string[];
  /** The credited invoice: its number (BT-25) and issue date (BT-26). */
  invoice: { number: string; issueDate: string | null };
  seller: { name: string | null; oib: string | null };
  buyer: { name: string | null; oib: string | null };
}

/** A CreditNote by its root element; anything else (an Invoice, bad XML) goes to the invoice intake, which says what is wrong. */
export function isUblCreditNote(input: Buffer | string): boolean {
  try {
    return documentKindOf(parseUblXml(input)) === 'creditNote';
  } catch {
    return false;
  }
}

/** The party's OIB: its EndpointID with scheme 9934, else the VAT identifier HR + OIB. */
function oibOf(party: PartyView | null): string | null {
  if (!party) return null;
  const candidate = party.endpointScheme === OIB_SCHEME_ID ? party.endpointId : (party.vatIds.find((id) => /^HR\d{11}$/.test(id))?.slice(2) ?? null);
  return candidate && isValidOib(candidate) ? candidate : null;
}

/** Parses and checks one CreditNote. Throws 400 (every failing rule), 413 (over 5 MB). */
export function parseUblCreditNote(input: Buffer | string): UblCreditNote {
  const root = parseUblXml(input);
  const document = readDocument(root);
  const problems: Problem[] = checkEInvoiceRules(root, 'creditNoteIntake').map((violation) => ({ rule: violation.rule, message: violation.message }));
  if (document.kind !== 'creditNote') problems.push({ rule: 'UBL 2.1', message: 'the root element must be CreditNote' });
  if (document.typeCode !== null && document.typeCode !== '381') {
    problems.push({ rule: 'BT-3', message: `Credit note type code ${document.typeCode}: only a commercial credit note (381) credits a purchased invoice` });
  }
  const references = document.precedingInvoices.filter((reference) => reference.id !== null);
  if (references.length > 1) problems.push({ rule: 'BG-3', message: `The credit note names ${references.length} invoices; FinFlow credits one purchased invoice per credit note` });
  const amountCents = document.totals.payable?.cents ?? null;
  if (amountCents !== null && amountCents <= 0) problems.push({ rule: 'BT-115', message: 'The amount credited (BT-115) is not positive: there is nothing to credit' });
  if (problems.length > 0) throw ruleRefusal(problems);
  return {
    number: document.number!,
    issueDate: document.issueDate!,
    currency: document.currency!,
    amountCents: amountCents!,
    notes: all(root, 'cbc:Note')
      .map((note) => note.text)
      .filter(Boolean),
    invoice: { number: references[0].id!, issueDate: references[0].issueDate },
    seller: { name: document.seller?.name ?? null, oib: oibOf(document.seller) },
    buyer: { name: document.buyer?.name ?? null, oib: oibOf(document.buyer) },
  };
}
