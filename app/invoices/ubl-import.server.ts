import type { Transaction } from 'sequelize';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { createCustomer } from '../customers/customers.server.ts';
import { deleteObjectIfUnreferenced, storeDocument } from '../documents/documents.server.ts';
import { execute, inTransaction } from '../db.server.ts';
import type { UblInvoice } from '../einvoices/ubl-constants.ts';
import { parseUblInvoice } from '../einvoices/ubl-document.server.ts';
import { isUblCreditNote } from '../einvoices/ubl-credit-note.server.ts';
import { intakeUblCreditNote } from '../dilution/ubl-intake.server.ts';
import type { CreditNoteDto } from '../dilution/credit-notes.server.ts';
import { matchUblParties, type ProposedCustomer } from '../einvoices/ubl-parties.server.ts';
import { objectKeyFor, sha256Hex } from '../storage/object-store.server.ts';
import { apiError } from '../utils/api.server.ts';
import { insertInvoice } from './invoice-create.server.ts';
import type { InvoiceDto } from './invoice-dto.server.ts';
import { INVOICE_MESSAGES, INVOICE_REFUSALS } from './schemas.ts';

/**
 * POST /api/invoices/import: a client's UBL e-invoice becomes an invoice.
 * The XML is parsed and checked first (ubl-document.server.ts; nothing is
 * written when it is refused), then in one transaction: the parties are
 * matched (seller = the client, buyer = a customer), the customer is created
 * when proposed and allowed, the invoice and its lines are inserted
 * (source 'ubl'), and the XML is stored as the invoice's document (type
 * 'invoice') and linked as invoices.ubl_document_id.
 * A UBL CreditNote is not an invoice: it credits the purchased invoice it
 * names (app/dilution/ubl-intake.server.ts), and the answer is that invoice
 * with the credit note.
 */
export interface ImportedInvoice extends InvoiceDto {
  customerCreated: boolean;
  documentId: string;
  /** With a CreditNote: the credit note recorded on this (purchased) invoice. */
  creditNote?: CreditNoteDto;
}

/** 409 carrying the proposed customer, so the UI can ask before creating it: the refusal body plus `proposedCustomer`. */
async function proposalRefusal(proposal: ProposedCustomer): Promise<Response> {
  const params = { name: proposal.companyName, oib: proposal.oib };
  const refusal = apiError(409, INVOICE_REFUSALS.customerProposal, { params, errors: { customerId: [{ code: INVOICE_REFUSALS.customerProposal, params }] } });
  const body = (await refusal.json()) as Record<string, unknown>;
  return new Response(JSON.stringify({ ...body, proposedCustomer: proposal }), { status: 409, headers: refusal.headers });
}

function documentName(invoice: UblInvoice): string {
  return `e-Račun ${invoice.invoiceNumber}.xml`.slice(0, 255);
}

export interface UblIntakeInput {
  clientId: string;
  xml: Buffer | string;
  fileName?: string | null;
  createCustomer?: boolean;
  ip?: string | null;
  /** Added to the invoice_created activity details (e.g. the intermediary's document id). */
  details?: Record<string, unknown>;
}

/**
 * Throws 400 (XML or its rules, naming each; unknown client; seller OIB not
 * the client's), 403, 409 (customer proposal without createCustomer; number
 * taken), 413 (over 5 MB), 415 when the document store refuses XML.
 */
export async function importUblInvoice({ actor, ...input }: UblIntakeInput & { actor: Actor }): Promise<ImportedInvoice> {
  assertCan(actor, 'create:invoice');
  return intakeUblInvoice({ actor, ...input });
}

/**
 * The intake itself, shared by the upload (a staff member, checked above) and
 * the e-invoices received from the intermediary (actor null: nobody on staff
 * submitted them). `within` runs in the intake's transaction once the invoice (or credit note)
 * is stored, so the caller's own record commits or rolls back with it.
 */
export async function intakeUblInvoice(
  { actor, clientId, xml, fileName, createCustomer: mayCreateCustomer = false, ip, details = {} }: UblIntakeInput & { actor: Actor | null },
  options: { within?: (invoiceId: string, transaction: Transaction) => Promise<void> } = {},
): Promise<ImportedInvoice> {
  if (!clientId) throw apiError(400, INVOICE_MESSAGES.clientRequired, { errors: { clientId: [INVOICE_MESSAGES.clientRequired] } });
  // Not a UUID cannot name a client; refused here rather than by the database.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(clientId))
    throw apiError(400, INVOICE_MESSAGES.clientNotFound, { errors: { clientId: [INVOICE_MESSAGES.clientNotFound] } });
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  if (isUblCreditNote(bytes)) {
    const credited = await intakeUblCreditNote({ actor, clientId: clientId.toLowerCase(), xml: bytes, fileName, ip }, options);
    return { ...credited.invoice, customerCreated: false, documentId: credited.documentId, creditNote: credited.creditNote };
  }
  const parsed = parseUblInvoice(bytes);
  const name = fileName?.trim() || `${parsed.invoiceNumber.replace(/[^\w.-]+/g, '_')}.xml`;
  let stored = false;
  try {
    return await inTransaction(async (transaction) => {
      const match = await matchUblParties(parsed, clientId.toLowerCase(), { transaction });
      let customerId = match.customer?.id ?? null;
      let customerCreated = false;
      if (!customerId) {
        if (!mayCreateCustomer) throw await proposalRefusal(match.proposedCustomer!);
        const customer = await createCustomer({ actor, input: match.proposedCustomer!, ip }, { transaction });
        customerId = customer.id;
        customerCreated = true;
      }
      const invoice = await insertInvoice(
        {
          actor,
          ip,
          invoice: {
            clientId: match.client.id,
            customerId,
            invoiceNumber: parsed.invoiceNumber,
            issueDate: parsed.issueDate,
            dueDate: parsed.dueDate,
            amount: parsed.amount,
            currency: parsed.currency,
            description: parsed.description,
            source: 'ubl',
            lines: parsed.lines.map((line) => ({
              description: line.description,
              quantity: line.quantity,
              unitCode: line.unitCode,
              unitPrice: line.unitPrice,
              netAmount: line.netAmount,
              vatCategory: line.vatCategory,
              vatRate: line.vatRate,
              kpdCode: line.kpdCode,
            })),
          },
          details: {
            fileName: name,
            customerCreated,
            profileId: parsed.profileId,
            issueTime: parsed.issueTime,
            paymentReference: parsed.paymentMeans[0]?.paymentId ?? null,
            ...details,
          },
        },
        transaction,
      );
      stored = true;
      const document = await storeDocument(
        {
          actor,
          bytes,
          // The e-invoice itself: the one place an XML document is accepted.
          allowed: ['xml'],
          fileName: name,
          declaredMime: 'application/xml',
          name: documentName(parsed),
          type: 'invoice',
          entityType: 'invoice',
          entityId: invoice.id,
          ip,
        },
        { transaction },
      );
      // storeDocument wrote document_uploaded, linked to this invoice, in this transaction.
      await execute('UPDATE invoices SET ubl_document_id = :documentId WHERE id = :id', { id: invoice.id, documentId: document.id }, { transaction });
      const imported = { ...invoice, customerCreated, documentId: document.id };
      await options.within?.(invoice.id, transaction);
      return imported;
    });
  } catch (error) {
    // The document store wrote the bytes before our transaction rolled back: they must not outlive it.
    if (stored) await deleteObjectIfUnreferenced(objectKeyFor(sha256Hex(bytes))).catch(() => {});
    throw error;
  }
}
