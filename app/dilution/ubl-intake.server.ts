import type { Transaction } from 'sequelize';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { inTransaction, selectOne } from '../db.server.ts';
import { deleteObjectIfUnreferenced, storeDocument } from '../documents/documents.server.ts';
import { UBL_MESSAGES } from '../einvoices/ubl-constants.ts';
import { parseUblCreditNote } from '../einvoices/ubl-credit-note.server.ts';
import { readInvoice, toInvoiceDto, type InvoiceDto } from '../invoices/invoice-dto.server.ts';
import { objectKeyFor, sha256Hex } from '../storage/object-store.server.ts';
import { apiError } from '../utils/api.server.ts';
import { isUuid } from '../utils/validation.ts';
import type { Client, Customer, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { lockCreditedInvoice, recordCreditNote, type CreditNoteDto } from './credit-notes.server.ts';
import { DILUTION_ERRORS } from './schemas.ts';

/**
 * A client's UBL CreditNote, through the e-invoice intake (POST
 * /api/invoices/import and the documents received from the intermediary;
 * docs/collections.md#dilution-and-disputes-resolved): the document is checked
 * (app/einvoices/ubl-credit-note.server.ts), the seller must be the client by
 * OIB, the invoice it names (BT-25) one of the client's invoices on the
 * debtor that is the buyer, and it becomes a credit note on that invoice
 * (source 'ubl') with the XML stored as the invoice's document. Refusals:
 * 400 the document's rules or a seller that is not the client, 409 the
 * invoice unknown for that client and debtor, not purchased, or the amount
 * above what is left (app/dilution/credit-notes.server.ts). A staff member
 * uploading one needs 'record:credit_note'; the intermediary's intake has no
 * actor.
 */
export interface CreditNoteIntake {
  invoice: InvoiceDto;
  creditNote: CreditNoteDto;
  documentId: string;
}

async function creditedInvoiceOf(clientId: string, parsed: ReturnType<typeof parseUblCreditNote>, transaction: Transaction): Promise<string> {
  const client = isUuid(clientId)
    ? await selectOne<RowOf<typeof Client, 'id' | 'oib' | 'company_name'>>('SELECT id, oib, company_name FROM clients WHERE id = :clientId', { clientId }, { transaction })
    : null;
  if (!client) throw apiError(400, 'errors.parties.clientNotFound', { errors: { clientId: ['errors.parties.clientNotFound'] } });
  if (parsed.seller.oib !== client.oib) {
    const refusal = { code: UBL_MESSAGES.sellerNotClient, params: { sellerOib: String(parsed.seller.oib), clientOib: client.oib, name: client.company_name } };
    throw apiError(400, refusal.code, { params: refusal.params, errors: { xml: [refusal] } });
  }
  const candidates = await selectOne<RowOf<typeof Invoice, 'id' | 'currency'> & { customer_oib: RowOf<typeof Customer>['oib']; others: number }>(
    `SELECT i.id, i.currency, cu.oib AS customer_oib, count(*) OVER ()::int AS others
       FROM invoices i JOIN customers cu ON cu.id = i.customer_id
      WHERE i.client_id = :clientId AND i.invoice_number = :number
      ORDER BY (cu.oib = :buyerOib) DESC, i.created_at DESC LIMIT 1`,
    { clientId: client.id, number: parsed.invoice.number, buyerOib: parsed.buyer.oib ?? '' },
    { transaction },
  );
  const params = { number: parsed.invoice.number, name: client.company_name, buyerOib: String(parsed.buyer.oib) };
  if (!candidates) throw apiError(409, DILUTION_ERRORS.ublInvoiceUnknown, { params, errors: { xml: [{ code: DILUTION_ERRORS.ublInvoiceUnknown, params }] } });
  if (candidates.customer_oib !== parsed.buyer.oib) {
    throw apiError(409, DILUTION_ERRORS.ublBuyerNotDebtor, { params, errors: { xml: [{ code: DILUTION_ERRORS.ublBuyerNotDebtor, params }] } });
  }
  if (candidates.currency !== parsed.currency) {
    const currency = { number: parsed.invoice.number, currency: parsed.currency, invoiceCurrency: candidates.currency };
    throw apiError(409, DILUTION_ERRORS.ublNotEur, { params: currency, errors: { xml: [{ code: DILUTION_ERRORS.ublNotEur, params: currency }] } });
  }
  return candidates.id;
}

export async function intakeUblCreditNote(
  { actor, clientId, xml, fileName, ip }: { actor: Actor | null; clientId: string; xml: Buffer; fileName?: string | null; ip?: string | null },
  options: { within?: (invoiceId: string, transaction: Transaction) => Promise<void> } = {},
): Promise<CreditNoteIntake> {
  if (actor) assertCan(actor, 'record:credit_note');
  const parsed = parseUblCreditNote(xml);
  const name = fileName?.trim() || `${parsed.number.replace(/[^\w.-]+/g, '_')}.xml`;
  let stored = false;
  try {
    return await inTransaction(async (transaction) => {
      const invoiceId = await creditedInvoiceOf(clientId, parsed, transaction);
      const locked = (await lockCreditedInvoice(invoiceId, transaction))!;
      stored = true;
      const document = await storeDocument(
        {
          actor,
          bytes: xml,
          allowed: ['xml'],
          fileName: name,
          declaredMime: 'application/xml',
          name: `e-Odobrenje ${parsed.number}.xml`.slice(0, 255),
          type: 'invoice',
          entityType: 'invoice',
          entityId: invoiceId,
          ip,
        },
        { transaction },
      );
      const creditNote = await recordCreditNote(
        locked,
        {
          number: parsed.number.slice(0, 100),
          issueDate: parsed.issueDate,
          amountCents: parsed.amountCents,
          reason: (parsed.notes.join('\n') || `e-Odobrenje ${parsed.number}`).slice(0, 5000),
          source: 'ubl',
          documentId: document.id,
        },
        { actorId: actor?.id ?? null, ip },
        transaction,
      );
      await options.within?.(invoiceId, transaction);
      return { invoice: toInvoiceDto((await readInvoice(invoiceId, transaction))!), creditNote, documentId: document.id };
    });
  } catch (error) {
    // The document store wrote the bytes before the transaction rolled back: they must not outlive it.
    if (stored) await deleteObjectIfUnreferenced(objectKeyFor(sha256Hex(xml))).catch(() => {});
    throw error;
  }
}
