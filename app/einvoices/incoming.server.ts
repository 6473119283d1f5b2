import { createHash } from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { IncomingEInvoiceStatus } from '../../db/models/enums.ts';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { upstreamRefusal } from '../integrations/core.server.ts';
import { getEInvoicing, type ReceivedDocument } from '../integrations/einvoicing.server.ts';
import { intakeUblInvoice } from '../invoices/ubl-import.server.ts';
import { apiError, readApiError } from '../utils/api.server.ts';
import { decodeRefusal, encodeRefusal, englishText, type RefusalParams } from '../utils/refusals.ts';
import { UBL_MESSAGES } from './ubl-constants.ts';
import { parseUblInvoice } from './ubl-document.server.ts';
import { isUblCreditNote, parseUblCreditNote } from './ubl-credit-note.server.ts';
import type { Client, IncomingEInvoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { iso } from '../utils/api-values.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * E-invoices received through the intermediary: each document goes
 * through the same intake as POST /api/invoices/import, for the client whose
 * OIB is the seller's, creating the buyer as a customer when it is new (no
 * one is there to confirm, and the invoice still waits, pending, for
 * verification by two people). The outcome is recorded per document with
 * its XML: imported (linked to the new pending invoice) or failed (with the
 * reason, to be retried once fixed, e.g. after the client is on the books).
 * A document id already recorded is not taken twice. Activity rows:
 * einvoice_received, einvoice_receive_failed, einvoice_intake_retried.
 */

export interface ReceiveSummary {
  received: number;
  imported: number;
  failed: number;
  duplicates: number;
}

export interface IncomingEInvoiceDto {
  id: string;
  documentId: string;
  receivedAt: string;
  status: IncomingEInvoiceStatus;
  invoiceNumber: string | null;
  sellerOib: string | null;
  invoiceId: string | null;
  clientName: string | null;
  /** Why the intake failed, in the API's English. */
  error: string | null;
  /** The same reason as its refusal code with params (encodeRefusal), for the page to show in the reader's language. */
  errorCode: string | null;
  attempts: number;
  createdAt: string;
}

type IntakeOutcome = { status: 'imported'; invoiceId: string } | { status: 'failed'; error: string };

const MAX_ERROR = 2000;

/**
 * A failed intake keeps its reason as the refusal's code and params
 * (docs/decisions/013-error-codes.md); one too long for the column keeps its English.
 */
function storedError(code: string, params: RefusalParams = {}): string {
  const encoded = encodeRefusal(code, params);
  return encoded.length <= MAX_ERROR ? encoded : englishText(code, params).slice(0, MAX_ERROR);
}

/** The stored reason in English; a row stored before codes holds its English already. */
function englishError(stored: string): string {
  const refusal = decodeRefusal(stored);
  return refusal ? englishText(refusal.code, refusal.params) : stored;
}

const DUPLICATE = UBL_MESSAGES.alreadyReceived;
/** A received document whose seller is none of the clients (the intake's own refusal, kept beside the intake). */
const SELLER_UNKNOWN = 'einvoices.refusals.sellerUnknown';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What the intake says about one document; an unexpected error (database down) is thrown, not recorded. */
async function runIntake(
  document: { documentId: string; xml: string },
  actor: Actor | null,
  ip: string | null,
  within: (invoiceId: string, transaction: Transaction) => Promise<void>,
): Promise<IntakeOutcome & { invoiceNumber: string | null; sellerOib: string | null }> {
  let invoiceNumber: string | null = null;
  let sellerOib: string | null = null;
  try {
    // A credit note is taken in too: it credits the purchased invoice it names (app/dilution/ubl-intake.server.ts).
    const parsed = isUblCreditNote(document.xml) ? (({ number, seller }) => ({ invoiceNumber: number, seller }))(parseUblCreditNote(document.xml)) : parseUblInvoice(document.xml);
    invoiceNumber = parsed.invoiceNumber.slice(0, 255);
    sellerOib = parsed.seller.oib;
    const client = await selectOne<RowOf<typeof Client, 'id'>>('SELECT id FROM clients WHERE oib = :oib', { oib: parsed.seller.oib });
    if (!client) {
      return { status: 'failed', error: storedError(SELLER_UNKNOWN, { name: parsed.seller.name ?? '', oib: parsed.seller.oib ?? '' }), invoiceNumber, sellerOib };
    }
    const invoice = await intakeUblInvoice(
      {
        actor,
        clientId: client.id,
        xml: document.xml,
        fileName: `${document.documentId}.xml`,
        createCustomer: true,
        ip,
        details: { source: 'einvoicing', receivedDocumentId: document.documentId },
      },
      { within },
    );
    return { status: 'imported', invoiceId: invoice.id, invoiceNumber, sellerOib };
  } catch (error) {
    const refusal = await readApiError(error);
    if (!refusal) throw error;
    return { status: 'failed', error: storedError(refusal.code, refusal.params), invoiceNumber, sellerOib };
  }
}

/** Records one received document once; imported in the intake's own transaction, failed in one of its own. */
export async function intakeReceivedDocument(
  document: ReceivedDocument,
  { actor, ip = null }: { actor: Actor | null; ip?: string | null },
): Promise<'imported' | 'failed' | 'duplicate'> {
  const known = await selectOne('SELECT 1 AS known FROM incoming_einvoices WHERE document_id = :documentId', { documentId: document.documentId });
  if (known) return 'duplicate';
  const base = { documentId: document.documentId.slice(0, 255), receivedAt: document.receivedAt, xml: document.xml, sha: sha256(document.xml) };
  // The document's row, imported or failed, is logged with its document id.
  const logReceipt = (action: string, id: string, details: Record<string, unknown>, transaction: Transaction) =>
    logActivity(
      { action, userId: actor?.id ?? null, entityType: 'incoming_einvoice', entityId: id, ipAddress: ip, details: { documentId: document.documentId, ...details } },
      transaction,
    );
  const outcome = await runIntake(document, actor, ip, async (invoiceId, transaction) => {
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO incoming_einvoices (document_id, received_at, xml, xml_sha256, status, invoice_number, seller_oib, invoice_id)
       SELECT :documentId, :receivedAt, :xml, :sha, 'imported', i.invoice_number, c.oib, i.id
         FROM invoices i JOIN clients c ON c.id = i.client_id WHERE i.id = :invoiceId
       ON CONFLICT (document_id) DO NOTHING
       RETURNING id`,
      { ...base, invoiceId },
      { transaction },
    );
    // Taken meanwhile by a concurrent receive: this intake rolls back.
    if (rows.length === 0) throw apiError(409, DUPLICATE);
    await logReceipt('einvoice_received', rows[0].id, { invoiceId, status: 'imported' }, transaction);
  });
  if (outcome.status === 'imported') return 'imported';
  const inserted = await inTransaction(async (transaction) => {
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO incoming_einvoices (document_id, received_at, xml, xml_sha256, status, invoice_number, seller_oib, error)
       VALUES (:documentId, :receivedAt, :xml, :sha, 'failed', :invoiceNumber, :sellerOib, :error)
       ON CONFLICT (document_id) DO NOTHING
       RETURNING id`,
      { ...base, invoiceNumber: outcome.invoiceNumber, sellerOib: outcome.sellerOib, error: outcome.error },
      { transaction },
    );
    if (rows.length === 0) return false;
    await logReceipt('einvoice_receive_failed', rows[0].id, { invoiceNumber: outcome.invoiceNumber, error: englishError(outcome.error) }, transaction);
    return true;
  });
  return inserted ? 'failed' : 'duplicate';
}

/**
 * Fetches what waits at the intermediary and takes each document in. The
 * page's 'Zaprimi dokumente' (admin) passes its actor; the sync job none.
 * Throws 502 when the intermediary cannot be reached (nothing was taken).
 */
export async function receiveIncomingEInvoices({ actor, ip = null }: { actor: Actor | null; ip?: string | null }): Promise<ReceiveSummary> {
  if (actor) assertCan(actor, 'manage:integrations');
  let documents: ReceivedDocument[];
  try {
    documents = await getEInvoicing().receiveDocuments();
  } catch (error) {
    throw upstreamRefusal(error);
  }
  const summary: ReceiveSummary = { received: documents.length, imported: 0, failed: 0, duplicates: 0 };
  for (const document of documents) {
    const outcome = await intakeReceivedDocument(document, { actor, ip });
    if (outcome === 'imported') summary.imported += 1;
    else if (outcome === 'failed') summary.failed += 1;
    else summary.duplicates += 1;
  }
  return summary;
}

/**
 * 'Ponovi uvoz' on a failed document (user: the daily queue creates invoices):
 * the intake runs again on the kept XML; imported links the invoice, failed
 * keeps the new reason. 404 unknown, 409 when already imported.
 */
export async function retryIncomingEInvoice({ actor, id, ip = null }: { actor: Actor; id: string; ip?: string | null }): Promise<IncomingEInvoiceStatus> {
  assertCan(actor, 'create:invoice');
  const row = /^[0-9a-f-]{36}$/i.test(id)
    ? await selectOne<RowOf<typeof IncomingEInvoice, 'id' | 'document_id' | 'xml' | 'status'>>('SELECT id, document_id, xml, status FROM incoming_einvoices WHERE id = :id', { id })
    : null;
  if (!row) throw apiError(404, UBL_MESSAGES.incomingNotFound);
  if (row.status === 'imported') throw apiError(409, UBL_MESSAGES.alreadyImported);
  // Each retry, imported or failed again, is logged on the document's row.
  const logRetry = (details: Record<string, unknown>, transaction: Transaction) =>
    logActivity(
      {
        action: 'einvoice_intake_retried',
        userId: actor.id,
        entityType: 'incoming_einvoice',
        entityId: row.id,
        ipAddress: ip,
        details: { documentId: row.document_id, ...details },
      },
      transaction,
    );
  const outcome = await runIntake({ documentId: row.document_id, xml: row.xml }, actor, ip, async (invoiceId, transaction) => {
    // Only a row still failed is linked: a concurrent retry that won keeps its invoice, and this one rolls back.
    const { count } = await execute(
      `UPDATE incoming_einvoices SET status = 'imported', invoice_id = :invoiceId, error = NULL, attempts = attempts + 1 WHERE id = :id AND status = 'failed'`,
      { id: row.id, invoiceId },
      { transaction },
    );
    if (count !== 1) throw apiError(409, UBL_MESSAGES.alreadyImported);
    await logRetry({ invoiceId, status: 'imported' }, transaction);
  });
  if (outcome.status === 'imported') return 'imported';
  await inTransaction(async (transaction) => {
    await execute(
      `UPDATE incoming_einvoices SET error = :error, attempts = attempts + 1, invoice_number = coalesce(:invoiceNumber, invoice_number),
              seller_oib = coalesce(:sellerOib, seller_oib)
        WHERE id = :id AND status = 'failed'`,
      { id: row.id, error: outcome.error, invoiceNumber: outcome.invoiceNumber, sellerOib: outcome.sellerOib },
      { transaction },
    );
    await logRetry({ status: 'failed', error: englishError(outcome.error) }, transaction);
  });
  return 'failed';
}

/** The received documents for /integrations/einvoicing, newest first, with the full count. */
export async function listIncomingEInvoices(options: { limit?: number; offset?: number } = {}): Promise<{ items: IncomingEInvoiceDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const [rows, count] = await Promise.all([
    selectRows<
      RowOf<typeof IncomingEInvoice, 'id' | 'document_id' | 'received_at' | 'status' | 'invoice_number' | 'seller_oib' | 'invoice_id' | 'error' | 'attempts' | 'created_at'> & {
        client_name: RowOf<typeof Client>['company_name'] | null;
      }
    >(
      `SELECT e.id, e.document_id, e.received_at, e.status, e.invoice_number, e.seller_oib, e.invoice_id, c.company_name AS client_name,
              e.error, e.attempts, e.created_at
         FROM incoming_einvoices e LEFT JOIN clients c ON c.oib = e.seller_oib
        ORDER BY e.created_at DESC, e.id DESC LIMIT :limit OFFSET :offset`,
      { limit, offset },
    ),
    selectOne<{ total: number }>('SELECT count(*)::int AS total FROM incoming_einvoices'),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      documentId: row.document_id,
      receivedAt: iso(row.received_at),
      status: row.status,
      invoiceNumber: row.invoice_number,
      sellerOib: row.seller_oib,
      invoiceId: row.invoice_id,
      clientName: row.client_name,
      error: row.error === null ? null : englishError(row.error),
      errorCode: row.error,
      attempts: row.attempts,
      createdAt: iso(row.created_at),
    })),
    total: count?.total ?? 0,
  };
}
