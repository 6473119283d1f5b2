import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne } from '../db.server.ts';
import { lineAmountCents, parseDecimal } from '../einvoices/decimal.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, percentOfCents, sumCents } from '../utils/money.ts';
import { INVOICE_MESSAGES, invoiceCreateSchema, type InvoiceCreateInput } from './schemas.ts';
import { startWorkflowOnEvent } from '../workflows/instances.server.ts';
import { readInvoice, toInvoiceDto, type InvoiceDto } from './invoice-dto.server.ts';
import type { Client, Customer } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Submitting an invoice: by hand or over the API (createInvoice), or from an
 * e-invoice (insertInvoice, called by ./ubl-import.server.ts). The invoice
 * starts pending with its invoice_created activity row and its verification
 * workflow (docs/lifecycle.md#invoices).
 *
 * Domain functions validate again, so a caller that skipped the schema cannot write bad data.
 */

/** A line ready to insert: net amount in cents, decimals as NUMERIC text. */
export interface NewInvoiceLine {
  description: string;
  quantity: string;
  unitCode: string;
  /** Net price per one unit (BT-146 ÷ BT-149), 4 decimals as stored. */
  unitPrice: string;
  /** BT-131 in cents. */
  netAmount: number;
  vatCategory: string;
  /** Percent with 2 decimals ('25.00'); '0.00' for categories without a rate. */
  vatRate: string;
  /** The KPD classification (ItemClassificationCode listID="CG"). */
  kpdCode: string | null;
}

export interface NewInvoice {
  clientId: string;
  customerId: string;
  invoiceNumber: string;
  issueDate: string;
  dueDate: string;
  /** Cents. */
  amount: number;
  currency: string;
  description: string | null;
  source: 'manual' | 'ubl';
  lines: NewInvoiceLine[];
}

/**
 * Inserts the invoice, its lines and its invoice_created row in the caller's
 * transaction. Checks the client and customer exist (400 on the field) and
 * the number is free for the client (409 on invoiceNumber; a concurrent
 * insert that slips past the check hits the unique index, same answer).
 */
export async function insertInvoice(
  { actor, invoice, ip, details = {} }: { actor: Actor | null; invoice: NewInvoice; ip?: string | null; details?: Record<string, unknown> },
  transaction: Transaction,
): Promise<InvoiceDto> {
  const [client, customer] = await Promise.all([
    selectOne<RowOf<typeof Client, 'company_name'>>('SELECT company_name FROM clients WHERE id = :id', { id: invoice.clientId }, { transaction }),
    selectOne<RowOf<typeof Customer, 'company_name'>>('SELECT company_name FROM customers WHERE id = :id', { id: invoice.customerId }, { transaction }),
  ]);
  const missing: Record<string, string[]> = {};
  if (!client) missing.clientId = [INVOICE_MESSAGES.clientNotFound];
  if (!customer) missing.customerId = [INVOICE_MESSAGES.customerNotFound];
  if (Object.keys(missing).length) throw apiError(400, Object.values(missing)[0][0], { errors: missing });

  const taken = () => apiError(409, INVOICE_MESSAGES.invoiceNumberTaken, { errors: { invoiceNumber: [INVOICE_MESSAGES.invoiceNumberTaken] } });
  const existing = await selectOne(
    'SELECT 1 AS taken FROM invoices WHERE client_id = :clientId AND invoice_number = :invoiceNumber',
    { clientId: invoice.clientId, invoiceNumber: invoice.invoiceNumber },
    { transaction },
  );
  if (existing) throw taken();

  let id: string;
  try {
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO invoices (client_id, customer_id, invoice_number, amount, currency, issue_date, due_date, description, source, created_by)
       VALUES (:clientId, :customerId, :invoiceNumber, :amount, :currency, :issueDate, :dueDate, :description, :source, :createdBy)
       RETURNING id`,
      { ...invoice, amount: centsToDecimalString(invoice.amount), createdBy: actor?.id ?? null },
      { transaction },
    );
    id = rows[0].id;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  for (const [index, line] of invoice.lines.entries()) {
    await execute(
      `INSERT INTO invoice_lines (invoice_id, line_number, description, quantity, unit_code, unit_price, net_amount, vat_category, vat_rate, kpd_code)
       VALUES (:id, :lineNumber, :description, :quantity, :unitCode, :unitPrice, :netAmount, :vatCategory, :vatRate, :kpdCode)`,
      { ...line, id, lineNumber: index + 1, netAmount: centsToDecimalString(line.netAmount) },
      { transaction },
    );
  }
  await logActivity(
    {
      action: 'invoice_created',
      // Null for an e-invoice received from the intermediary: nobody on staff created it.
      userId: actor?.id ?? null,
      entityType: 'invoice',
      entityId: id,
      ipAddress: ip,
      details: {
        invoiceNumber: invoice.invoiceNumber,
        clientName: client!.company_name,
        customerName: customer!.company_name,
        amount: centsToNumber(invoice.amount),
        currency: invoice.currency,
        issueDate: invoice.issueDate,
        dueDate: invoice.dueDate,
        lineCount: invoice.lines.length,
        source: invoice.source,
        fromStatus: null,
        toStatus: 'pending',
        ...details,
      },
    },
    transaction,
  );
  // Submitted by hand, over the API or as a UBL/e-invoice: its verification workflow starts with it.
  await startWorkflowOnEvent({ event: 'invoice_submitted', entityType: 'invoice', entityId: id, actor, ip }, { transaction });
  return toInvoiceDto((await readInvoice(id, transaction))!);
}

/**
 * The VAT-inclusive total of lines as EN 16931 computes it: net amounts summed
 * per VAT category and rate, VAT rounded once per group (half-up), added up.
 */
export function grossOfLines(lines: Array<Pick<NewInvoiceLine, 'netAmount' | 'vatCategory' | 'vatRate'>>): number {
  const groups = new Map<string, { rate: string; nets: number[] }>();
  for (const line of lines) {
    const key = `${line.vatCategory} ${line.vatRate}`;
    const group = groups.get(key) ?? { rate: line.vatRate, nets: [] };
    group.nets.push(line.netAmount);
    groups.set(key, group);
  }
  let total = 0;
  for (const { rate, nets } of groups.values()) {
    const net = sumCents(nets);
    total += net + percentOfCents(net, rate);
  }
  return total;
}

/**
 * POST /api/invoices. With lines, each line's net amount is quantity × unit
 * price (to the cent, half-up) and `amount` must be their total with VAT.
 * Throws 400 (invalid; unknown client/customer on the field), 403, 409 (number taken).
 */
export async function createInvoice(
  { actor, input, ip }: { actor: Actor; input: InvoiceCreateInput; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<InvoiceDto> {
  assertCan(actor, 'create:invoice');
  const data = parseInput(invoiceCreateSchema, input);
  const lines: NewInvoiceLine[] = (data.lines ?? []).map((line) => ({
    description: line.description,
    quantity: line.quantity,
    unitCode: line.unitCode,
    unitPrice: line.unitPrice,
    netAmount: lineAmountCents(parseDecimal(line.quantity)!, parseDecimal(line.unitPrice)!),
    vatCategory: line.vatCategory,
    vatRate: line.vatRate,
    kpdCode: line.kpdCode ?? null,
  }));
  if (lines.length > 0) {
    const gross = grossOfLines(lines);
    if (gross !== data.amount) {
      const refusal = { code: INVOICE_MESSAGES.linesDoNotAddUp, params: { gross: centsToDecimalString(gross) } };
      throw apiError(400, refusal.code, { params: refusal.params, errors: { amount: [refusal] } });
    }
  }
  const invoice: NewInvoice = {
    clientId: data.clientId.toLowerCase(),
    customerId: data.customerId.toLowerCase(),
    invoiceNumber: data.invoiceNumber,
    issueDate: data.issueDate,
    dueDate: data.dueDate,
    amount: data.amount,
    currency: data.currency,
    description: data.description ?? null,
    source: 'manual',
    lines,
  };
  const run = (transaction: Transaction) => insertInvoice({ actor, invoice, ip }, transaction);
  return inTransaction(run, options.transaction);
}
