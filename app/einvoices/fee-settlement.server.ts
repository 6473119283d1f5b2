import type { Transaction } from 'sequelize';
import type { OutgoingEInvoiceTypeCode } from '../../db/models/enums.ts';
import { logActivity } from '../activity-log.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { UBL_MESSAGES } from './ubl-constants.ts';
import { formatDate, formatEur } from '../utils/format.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { factorParty } from './factor-party.server.ts';
import { sqlBusinessLocal } from '../utils/business-time.ts';
import type { Customer, Invoice, OutgoingEInvoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import {
  drawNumbers,
  E_INVOICING_FROM,
  EINVOICE_MESSAGES,
  enqueueAfterCommit,
  FEE_PAYMENT_DAYS,
  FEE_VAT,
  feeFigures,
  feeNumber,
  feePayment,
  sha256,
  writeFeeDocument,
  type FeeClient,
} from './outgoing.server.ts';

/**
 * At settlement: the completing fee invoice or the fee credit note, written
 * with the fee e-invoice's parties, payment and document writer
 * (outgoing.server.ts).
 */

/** What a settlement document is: its purpose, UBL kind and type code (docs/decisions/015-fee-documents-at-settlement.md). */
const SETTLEMENT_KINDS = {
  fee_completion: { kind: 'invoice', typeCode: '380' },
  fee_credit: { kind: 'creditNote', typeCode: '381' },
} as const;

export interface FeeSettlementDocument {
  id: string;
  number: string;
  /** Signed like the difference: positive for a completing invoice, negative for a credit note. */
  netCents: number;
  vatCents: number;
  grossCents: number;
  typeCode: OutgoingEInvoiceTypeCode;
}

type SettlementSource = RowOf<typeof Invoice, 'id' | 'invoice_number' | 'status' | 'client_id'> &
  FeeClient & {
    financed_day: string | null;
    /** Today and now in Croatia: the settlement's issue date and time. */
    issue_date: string;
    issue_time: string;
    due_date: string;
    customer_name: RowOf<typeof Customer>['company_name'];
    first_id: RowOf<typeof OutgoingEInvoice>['id'] | null;
    first_number: RowOf<typeof OutgoingEInvoice>['number'] | null;
    first_issue_date: RowOf<typeof OutgoingEInvoice>['issue_date'] | null;
    /** The net fee invoiced so far: fee invoice and completions less credit notes (NUMERIC text). */
    invoiced_net: string;
  };

/**
 * At settlement the final fee may differ from the fee invoiced so far: this
 * issues, in the caller's transaction (the settlement's), the document for
 * the difference (docs/decisions/015-fee-documents-at-settlement.md):
 * `netCents` > 0 a completing fee invoice (380, purpose fee_completion), < 0
 * a credit note (a UBL CreditNote, 381, purpose fee_credit) for |netCents|,
 * 0 nothing (null). Either refers to the invoice's fee invoice (BT-25, BT-26)
 * and says why (`reason`, in a note); VAT is 25 % of |netCents| rounded once
 * half-up, as at financing (feeFigures). The number comes from the same
 * gapless counter; the row, its UBL and its einvoice_issued activity row
 * are written here and the sending is queued after commit (unless
 * `send: false`). Returns null as well when the financing predates
 * E_INVOICING_FROM (there is no fee e-invoice to refer to). Throws 404 for
 * an unknown invoice, 409 when it is not financed, its fee invoice is
 * missing or a credit would exceed the net fee invoiced so far, RangeError
 * for a net that is not whole cents or an empty reason.
 */
export async function issueFeeSettlementDocument(
  invoiceId: string,
  input: { netCents: number; reason: string; actorId?: string | null },
  transaction: Transaction,
  options: { send?: boolean } = {},
): Promise<FeeSettlementDocument | null> {
  const { netCents } = input;
  if (!Number.isSafeInteger(netCents)) throw new RangeError(`netCents must be whole cents: ${netCents}`);
  const reason = input.reason.trim();
  if (reason === '' || reason.length > 500) throw new RangeError('reason must be 1–500 characters');
  if (netCents === 0) return null;

  const source = /^[0-9a-f-]{36}$/i.test(invoiceId)
    ? await selectOne<SettlementSource>(
        `SELECT i.id, i.invoice_number, i.status, i.client_id,
                to_char(${sqlBusinessLocal('i.financed_at')}, 'YYYY-MM-DD') AS financed_day,
                to_char(${sqlBusinessLocal('now()')}, 'YYYY-MM-DD') AS issue_date,
                to_char(${sqlBusinessLocal('now()')}, 'HH24:MI:SS') AS issue_time,
                to_char(${sqlBusinessLocal('now()')}::date + CAST(:days AS integer), 'YYYY-MM-DD') AS due_date,
                c.company_name AS client_name, c.oib AS client_oib, c.address AS client_address,
                c.city AS client_city, c.postal_code AS client_postal_code, c.email AS client_email,
                cu.company_name AS customer_name,
                (SELECT coalesce(${sqlUserName('u')}, u.email) FROM users u WHERE u.id = CAST(:actorId AS uuid)) AS operator_name,
                f.id AS first_id, f.number AS first_number, f.issue_date AS first_issue_date,
                (SELECT coalesce(sum(CASE WHEN d.type_code = '381' THEN -d.net_amount ELSE d.net_amount END), 0)
                   FROM outgoing_einvoices d WHERE d.invoice_id = i.id) AS invoiced_net
           FROM invoices i
           JOIN clients c ON c.id = i.client_id
           JOIN customers cu ON cu.id = i.customer_id
           LEFT JOIN outgoing_einvoices f ON f.invoice_id = i.id AND f.purpose = 'financing_fee'
          WHERE i.id = :invoiceId`,
        { invoiceId, days: FEE_PAYMENT_DAYS, actorId: input.actorId ?? null },
        { transaction },
      )
    : null;
  if (!source) throw apiError(404, UBL_MESSAGES.invoiceNotFound);
  if (!['financed', 'paid'].includes(source.status) || source.financed_day === null) {
    throw apiError(409, UBL_MESSAGES.noFee, { params: { number: source.invoice_number, status: source.status } });
  }
  if (source.first_id === null) {
    // A financing before e-invoices began has no fee e-invoice, so nothing to complete or credit electronically.
    if (source.financed_day < E_INVOICING_FROM) return null;
    throw apiError(409, EINVOICE_MESSAGES.noFeeInvoice, { params: { number: source.invoice_number } });
  }

  // A credit note can take back at most the net fee invoiced so far: the fee never goes below zero.
  const invoicedNet = toCents(source.invoiced_net);
  if (netCents < 0 && -netCents > invoicedNet) {
    throw apiError(409, EINVOICE_MESSAGES.creditExceedsFee, {
      params: { number: source.invoice_number, credit: centsToDecimalString(-netCents), invoiced: centsToDecimalString(invoicedNet) },
    });
  }

  const purpose = netCents > 0 ? 'fee_completion' : 'fee_credit';
  const { kind, typeCode } = SETTLEMENT_KINDS[purpose];
  const fee = feeFigures(Math.abs(netCents));
  const year = Number(source.issue_date.slice(0, 4));
  const sequence = await drawNumbers(year, 1, transaction);
  const { number, paymentReference } = feeNumber(year, sequence);
  const first = { number: source.first_number!, issueDate: source.first_issue_date! };
  const factor = factorParty();
  const completion = kind === 'invoice';
  const what = completion ? 'razlika naknade za faktoring' : 'umanjenje naknade za faktoring';
  const xml = writeFeeDocument(
    {
      kind,
      number,
      dueDate: completion ? source.due_date : null,
      typeCode,
      notes: [
        `${completion ? 'Dopunski račun' : 'Odobrenje'} uz račun ${first.number} od ${formatDate(first.issueDate)}: ${what} financiranog računa ${source.invoice_number} prema konačnom obračunu.`,
        reason,
      ],
      precedingInvoice: first,
      // A credit note asks nothing of the client: the credit is set off in the settlement of the financed invoice.
      ...(completion
        ? feePayment(factor, paymentReference)
        : {
            payment: null,
            paymentTermsNote: `Iznos odobrenja ${formatEur(centsToNumber(fee.gross))} prebija se s obvezama klijenta u obračunu financiranog računa ${source.invoice_number}.`,
          }),
    },
    {
      name: completion ? 'Dopuna naknade za faktoring' : 'Umanjenje naknade za faktoring',
      description: `${completion ? 'Dopuna' : 'Umanjenje'} naknade za faktoring računa ${source.invoice_number} (kupac ${source.customer_name}) uz račun ${first.number}`,
    },
    { source, fee, factor },
  );

  // A credit note has nothing due: its due date is its issue date (the row requires one).
  const dueDate = completion ? source.due_date : source.issue_date;
  const { rows } = await execute<RowOf<typeof OutgoingEInvoice, 'id'>>(
    `INSERT INTO outgoing_einvoices (number, year, sequence, invoice_id, client_id, issued_at, issue_date, due_date, currency,
                                     net_amount, vat_rate, vat_amount, gross_amount, payment_reference, ubl_xml, ubl_sha256,
                                     purpose, type_code, preceding_id, created_by)
     VALUES (:number, :year, :sequence, :invoiceId, :clientId, now(), :issueDate, :dueDate, 'EUR',
             :net, :vatRate, :vat, :gross, :reference, :xml, :sha, :purpose, :typeCode, :precedingId, :createdBy)
     RETURNING id`,
    {
      number,
      year,
      sequence,
      invoiceId: source.id,
      clientId: source.client_id,
      issueDate: source.issue_date,
      dueDate,
      net: centsToDecimalString(fee.net),
      vatRate: FEE_VAT.rate,
      vat: centsToDecimalString(fee.vat),
      gross: centsToDecimalString(fee.gross),
      reference: paymentReference,
      xml,
      sha: sha256(xml),
      purpose,
      typeCode,
      precedingId: source.first_id,
      createdBy: input.actorId ?? null,
    },
    { transaction },
  );
  const id = rows[0].id;
  await logActivity(
    {
      action: 'einvoice_issued',
      userId: input.actorId ?? null,
      entityType: 'outgoing_einvoice',
      entityId: id,
      details: {
        number,
        purpose,
        typeCode,
        precedingNumber: first.number,
        invoiceNumber: source.invoice_number,
        clientName: source.client_name,
        issueDate: source.issue_date,
        dueDate,
        netAmount: centsToNumber(fee.net),
        vatRate: Number(FEE_VAT.rate),
        vatAmount: centsToNumber(fee.vat),
        grossAmount: centsToNumber(fee.gross),
        paymentReference,
        reason,
      },
    },
    transaction,
  );
  if (options.send !== false) enqueueAfterCommit(transaction, id);
  const sign = netCents > 0 ? 1 : -1;
  return { id, number, netCents, vatCents: sign * fee.vat, grossCents: sign * fee.gross, typeCode };
}
