import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan, type Permission } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectRows } from '../db.server.ts';
import { sendInvoiceVerifiedTemplate } from '../email/triggers.server.ts';
import { lineAmountCents, parseDecimal } from '../einvoices/decimal.ts';
import { issueFeeEInvoice } from '../einvoices/outgoing.server.ts';
import { openForPaymentSql, payableSql } from '../payments/open-amount.server.ts';
import { invoiceSearchCondition } from '../search.server.ts';
import { invoiceStatusTotals } from './summaries.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, factoringFeeCents, feePeriods, percentOfCents, sumCents, toCents } from '../utils/money.ts';
import {
  INVOICE_MESSAGES,
  INVOICE_STATUSES,
  INVOICE_TABS,
  invoiceCreateSchema,
  invoiceRejectSchema,
  type InvoiceCreateInput,
  type InvoiceRejectInput,
  type InvoiceStatus,
  type InvoiceTab,
} from './schemas.ts';
import { applyEntityDecision } from '../workflows/decisions.server.ts';
import { startWorkflowOnEvent } from '../workflows/instances.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';

/**
 * Invoices from submission to financing (docs/lifecycle.md#invoices, docs/domain-model.md).
 *
 * Lifecycle: pending → verified → approved → financed (→ paid, by payments),
 * or rejected from pending, verified or approved. Each operation runs in one
 * transaction that locks the invoice row (SELECT … FOR UPDATE), checks the
 * state and the rules, writes the change and its activity row
 * (invoice_created, invoice_verified, invoice_approved, invoice_financed,
 * invoice_rejected, with fromStatus/toStatus and the figures). A refusal
 * throws before anything is written, so it changes nothing.
 *
 * Status codes (docs/api.md#errors): a transition the state does not allow, financing
 * past the limit or for a blocked customer, a duplicate → 409; four eyes → 403.
 *
 * Lock order, everywhere: the invoice row, then the client row. Financing
 * holds the client row (FOR UPDATE) from reading used_credit to raising it,
 * so two concurrent financings of one client cannot both pass the limit.
 */

// ---------------------------------------------------------------------------
// Shapes

interface InvoiceRow {
  id: string;
  client_id: string;
  customer_id: string;
  invoice_number: string;
  status: InvoiceStatus;
  verification_status: 'pending' | 'verified' | 'failed';
  amount: string;
  currency: string;
  issue_date: string;
  due_date: string;
  description: string | null;
  factor_amount: string | null;
  factor_fee: string | null;
  paid_amount: string;
  pending_amount: string;
  source: 'manual' | 'ubl';
  ubl_document_id: string | null;
  verified_by: string | null;
  verified_at: Date | null;
  approved_by: string | null;
  approved_at: Date | null;
  financed_by: string | null;
  financed_at: Date | null;
  rejected_by: string | null;
  rejected_at: Date | null;
  rejection_reason: string | null;
  paid_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}
interface InvoiceListRow extends InvoiceRow {
  client_name: string;
  customer_name: string;
}

/** An invoice in the API's shape: docs/domain-model.md Invoice fields, plus the parties (docs/api.md) and paidAmount. */
export interface InvoiceDto {
  id: string;
  invoiceNumber: string;
  status: InvoiceStatus;
  verificationStatus: 'pending' | 'verified' | 'failed';
  amount: number;
  currency: string;
  issueDate: string;
  dueDate: string;
  description: string | null;
  factorAmount: number | null;
  factorFee: number | null;
  createdAt: string;
  clientId: string;
  clientName: string;
  customerId: string;
  customerName: string;
  paidAmount: number;
  source: 'manual' | 'ubl';
}

export interface InvoiceLineDto {
  id: string;
  lineNumber: number;
  description: string;
  quantity: string;
  unitCode: string;
  unitPrice: string;
  netAmount: number;
  vatCategory: string;
  vatRate: number;
  kpdCode: string | null;
}

export interface InvoiceHistoryEntry {
  id: string;
  action: string;
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
  ipAddress: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface InvoiceDetailDto extends InvoiceDto {
  rejectionReason: string | null;
  ublDocumentId: string | null;
  verifiedAt: string | null;
  approvedAt: string | null;
  financedAt: string | null;
  rejectedAt: string | null;
  paidAt: string | null;
  updatedAt: string;
  lines: InvoiceLineDto[];
  client: {
    id: string;
    companyName: string;
    oib: string;
    iban: string | null;
    advanceRate: number;
    feeRate: number;
    creditLimit: number | null;
    usedCredit: number;
  };
  customer: { id: string; companyName: string; oib: string; accountBlocked: boolean; blockageReason: string | null };
  documents: Array<{ id: string; name: string; type: string; mimeType: string; size: number; createdAt: string }>;
  payments: Array<{
    id: string;
    amount: number;
    currency: string;
    paymentMethod: string;
    status: string;
    reference: string | null;
    createdAt: string;
    processedAt: string | null;
  }>;
  payouts: Array<{ id: string; kind: string; amount: number; currency: string; iban: string; status: string; createdAt: string }>;
  /** Every activity row of the invoice, oldest first: each state change with who and when. */
  history: InvoiceHistoryEntry[];
}

/** docs/domain-model.md Payable invoice (id, invoiceNumber, customerName, amount, currency) and what the payment form also shows. */
export interface PayableInvoiceDto {
  id: string;
  invoiceNumber: string;
  customerName: string;
  amount: number;
  currency: string;
  clientId: string;
  clientName: string;
  customerId: string;
  paidAmount: number;
  /** Payments recorded and waiting for confirmation. */
  pendingAmount: number;
  /** What a new payment may still cover: amount − paidAmount − pendingAmount. */
  openAmount: number;
  dueDate: string;
}

export type InvoiceTabCounts = Record<InvoiceTab, number>;

const money = (value: string) => centsToNumber(toCents(value));
const moneyOrNull = (value: string | null) => (value === null ? null : money(value));
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toInvoiceDto(row: InvoiceListRow): InvoiceDto {
  return {
    id: row.id,
    invoiceNumber: row.invoice_number,
    status: row.status,
    verificationStatus: row.verification_status,
    amount: money(row.amount),
    currency: row.currency,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    description: row.description,
    factorAmount: moneyOrNull(row.factor_amount),
    factorFee: moneyOrNull(row.factor_fee),
    createdAt: iso(row.created_at)!,
    clientId: row.client_id,
    clientName: row.client_name,
    customerId: row.customer_id,
    customerName: row.customer_name,
    paidAmount: money(row.paid_amount),
    source: row.source,
  };
}

const SELECT_INVOICE = `
  SELECT i.*, c.company_name AS client_name, cu.company_name AS customer_name
    FROM invoices i
    JOIN clients c ON c.id = i.client_id
    JOIN customers cu ON cu.id = i.customer_id`;

async function readInvoice(id: string, transaction?: Transaction): Promise<InvoiceListRow | null> {
  if (!isUuid(id)) return null;
  return selectOne<InvoiceListRow>(`${SELECT_INVOICE} WHERE i.id = :id`, { id }, { transaction });
}

/** Domain functions validate again, so a caller that skipped the schema cannot write bad data. */

// ---------------------------------------------------------------------------
// Creation (manual and from an e-invoice)

/** A line ready to insert: net amount in cents, decimals as NUMERIC text. */
export interface NewInvoiceLine {
  description: string;
  quantity: string;
  unitCode: string;
  unitPrice: string;
  netAmount: number;
  vatCategory: string;
  vatRate: string;
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
    selectOne<{ company_name: string }>('SELECT company_name FROM clients WHERE id = :id', { id: invoice.clientId }, { transaction }),
    selectOne<{ company_name: string }>('SELECT company_name FROM customers WHERE id = :id', { id: invoice.customerId }, { transaction }),
  ]);
  const missing: Record<string, string[]> = {};
  if (!client) missing.clientId = [INVOICE_MESSAGES.clientNotFound];
  if (!customer) missing.customerId = [INVOICE_MESSAGES.customerNotFound];
  if (Object.keys(missing).length) throw apiError(400, Object.values(missing)[0][0], missing);

  const taken = () => apiError(409, INVOICE_MESSAGES.invoiceNumberTaken, { invoiceNumber: [INVOICE_MESSAGES.invoiceNumberTaken] });
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
      const message = `${INVOICE_MESSAGES.linesDoNotAddUp} (${centsToDecimalString(gross)})`;
      throw apiError(400, message, { amount: [message] });
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

// ---------------------------------------------------------------------------
// Transitions

type Verb = 'verify' | 'approve' | 'finance' | 'reject';

interface TransitionSpec {
  verb: Verb;
  permission: Permission;
  action: string;
  from: readonly InvoiceStatus[];
  to: InvoiceStatus;
  /** Checks the rules and writes the invoice's own columns; returns the activity details it adds. */
  apply: (row: InvoiceRow, transaction: Transaction) => Promise<Record<string, unknown>>;
}

async function transition(
  { actor, id, ip }: { actor: Actor; id: string; ip?: string | null },
  spec: TransitionSpec,
  options: { transaction?: Transaction } = {},
): Promise<InvoiceDto> {
  assertCan(actor, spec.permission);
  const run = async (transaction: Transaction) => {
    const row = isUuid(id)
      ? await selectOne<InvoiceRow>('SELECT * FROM invoices WHERE id = :id FOR UPDATE', { id }, { transaction })
      : null;
    if (!row) throw apiError(404, INVOICE_MESSAGES.notFound);
    if (!spec.from.includes(row.status)) throw apiError(409, `Invoice is ${row.status}; cannot ${spec.verb}`);
    const extra = await spec.apply(row, transaction);
    const updated = (await readInvoice(row.id, transaction))!;
    await logActivity(
      {
        action: spec.action,
        userId: actor.id,
        entityType: 'invoice',
        entityId: row.id,
        ipAddress: ip,
        details: {
          invoiceNumber: row.invoice_number,
          clientName: updated.client_name,
          customerName: updated.customer_name,
          amount: money(row.amount),
          currency: row.currency,
          fromStatus: row.status,
          toStatus: spec.to,
          ...extra,
        },
      },
      transaction,
    );
    return toInvoiceDto(updated);
  };
  return inTransaction(run, options.transaction);
}

/**
 * The duplicate rule of verification. An invoice is a duplicate when another
 * invoice that is not rejected
 *  (a) has the same client, customer, amount and issue date — the same
 *      receivable submitted again under another number; or
 *  (b) has the same customer, the same invoice number (ignoring case and
 *      surrounding spaces) and the same amount, and is already financed or
 *      paid under another client record — the same receivable assigned twice.
 * Numbers alone are not compared across clients: Croatian numbers such as
 * '15/1/1' repeat between sellers.
 */
async function findDuplicate(row: InvoiceRow, transaction: Transaction) {
  return selectOne<{ invoice_number: string; status: string; client_name: string; rule: 'same_receivable' | 'financed_elsewhere' }>(
    `SELECT i.invoice_number, i.status, c.company_name AS client_name,
            CASE WHEN i.client_id = :clientId THEN 'same_receivable' ELSE 'financed_elsewhere' END AS rule
       FROM invoices i JOIN clients c ON c.id = i.client_id
      WHERE i.id <> :id AND i.status <> 'rejected' AND i.customer_id = :customerId AND i.amount = :amount
        AND (
          (i.client_id = :clientId AND i.issue_date = :issueDate)
          OR (i.client_id <> :clientId AND i.status IN ('financed', 'paid')
              AND lower(btrim(i.invoice_number)) = lower(btrim(:invoiceNumber)))
        )
      ORDER BY i.created_at LIMIT 1`,
    {
      id: row.id,
      clientId: row.client_id,
      customerId: row.customer_id,
      amount: row.amount,
      issueDate: row.issue_date,
      invoiceNumber: row.invoice_number,
    },
    { transaction },
  );
}

async function customerState(customerId: string, transaction: Transaction) {
  return (await selectOne<{ company_name: string; account_blocked: boolean; blockage_reason: string | null }>(
    'SELECT company_name, account_blocked, blockage_reason FROM customers WHERE id = :customerId',
    { customerId },
    { transaction },
  ))!;
}

function blockedMessage(customer: { company_name: string; blockage_reason: string | null }, verb: string): string {
  return `Customer ${customer.company_name} has a blocked account${customer.blockage_reason ? ` (${customer.blockage_reason})` : ''}; cannot ${verb} the invoice`;
}

/**
 * PUT /api/invoices/{id}/verify (manager): pending → verified. Refused (409)
 * when the customer's account is blocked or the invoice is a duplicate
 * (findDuplicate). Sets verification_status 'verified', verified_by/at.
 */
export async function verifyInvoice(args: { actor: Actor; id: string; ip?: string | null }, options: { transaction?: Transaction } = {}) {
  return transition(
    args,
    {
      verb: 'verify',
      permission: 'verify:invoice',
      action: 'invoice_verified',
      from: ['pending'],
      to: 'verified',
      apply: async (row, transaction) => {
        const customer = await customerState(row.customer_id, transaction);
        if (customer.account_blocked) throw apiError(409, blockedMessage(customer, 'verify'));
        const duplicate = await findDuplicate(row, transaction);
        if (duplicate) {
          throw apiError(
            409,
            duplicate.rule === 'same_receivable'
              ? `Duplicate invoice: ${duplicate.invoice_number} (${duplicate.status}) has the same client, customer, amount and issue date`
              : `Duplicate invoice: number ${duplicate.invoice_number} for this customer and amount is already ${duplicate.status} for ${duplicate.client_name}`,
          );
        }
        await execute(
          `UPDATE invoices SET status = 'verified', verification_status = 'verified', verified_by = :actorId, verified_at = now()
            WHERE id = :id`,
          { id: row.id, actorId: args.actor.id },
          { transaction },
        );
        // The invoice_verified email (its active template, if any) is queued with the change; its job follows the commit.
        const mail = await sendInvoiceVerifiedTemplate(row.id, transaction);
        // Verifying is the verification workflow's manual review: its task closes and the instance goes on.
        await applyEntityDecision({ workflowType: 'invoice_verification', entityId: row.id, decision: 'approve', actor: args.actor, summary: 'invoice verified' }, { transaction });
        return { verificationStatus: 'verified', clientEmailQueued: mail.queued };
      },
    },
    options,
  );
}

/** PUT /api/invoices/{id}/approve (manager): verified → approved; the verifier may not approve (four eyes, 403). */
export async function approveInvoice(args: { actor: Actor; id: string; ip?: string | null }, options: { transaction?: Transaction } = {}) {
  return transition(
    args,
    {
      verb: 'approve',
      permission: 'approve:invoice',
      action: 'invoice_approved',
      from: ['verified'],
      to: 'approved',
      apply: async (row, transaction) => {
        if (row.verified_by === args.actor.id) {
          throw apiError(403, 'Four eyes: the manager who verified this invoice cannot also approve it');
        }
        await execute(`UPDATE invoices SET status = 'approved', approved_by = :actorId, approved_at = now() WHERE id = :id`, {
          id: row.id,
          actorId: args.actor.id,
        }, { transaction });
        return { verifiedBy: row.verified_by };
      },
    },
    options,
  );
}

/**
 * The financing figures (docs/money.md), the same rule the demo seed uses:
 *  - factorAmount (the advance) = amount × the client's advance_rate %, rounded half-up to the cent;
 *  - factorFee = amount × fee_rate % × periods, rounded once half-up, where
 *    periods = every started 30 days from the financing date to the due date,
 *    at least one (feePeriods); the financing date is today in Croatia
 *    (Europe/Zagreb), so an invoice due today or earlier pays one period.
 */
export function financingFigures(input: { amountCents: number; advanceRate: string; feeRate: string; days: number }) {
  return {
    factorAmount: percentOfCents(input.amountCents, input.advanceRate),
    factorFee: factoringFeeCents(input.amountCents, input.feeRate, input.days),
    periods: feePeriods(input.days),
  };
}

/**
 * PUT /api/invoices/{id}/finance (manager): approved → financed. In one
 * transaction, with the invoice and then the client row locked: refuses
 * (409, naming the reason) a client whose KYC is not approved, a blocked customer, a non-EUR invoice (limits and
 * used credit are in EUR), a client without IBAN or credit limit (a NULL
 * limit means no financing), used credit + advance past the limit, and an
 * advance + fee above the invoice amount; otherwise books factorAmount and
 * factorFee, raises clients.used_credit by the advance, inserts the
 * pending advance payout to the client's IBAN and issues the fee e-invoice
 * (app/einvoices/outgoing.server.ts), sent by a job after commit.
 */
export async function financeInvoice(args: { actor: Actor; id: string; ip?: string | null }, options: { transaction?: Transaction } = {}) {
  return transition(
    args,
    {
      verb: 'finance',
      permission: 'finance:invoice',
      action: 'invoice_financed',
      from: ['approved'],
      to: 'financed',
      apply: async (row, transaction) => {
        const client = (await selectOne<{
          company_name: string;
          iban: string | null;
          credit_limit: string | null;
          used_credit: string;
          advance_rate: string;
          fee_rate: string;
          onboarding_status: string;
        }>(
          'SELECT company_name, iban, credit_limit, used_credit, advance_rate, fee_rate, onboarding_status FROM clients WHERE id = :clientId FOR UPDATE',
          { clientId: row.client_id },
          { transaction },
        ))!;
        // No financing before staff approved the client's KYC (app/onboarding/kyc-decision.server.ts).
        if (client.onboarding_status !== 'completed') {
          throw apiError(409, INVOICE_MESSAGES.kycNotApproved, { clientId: [INVOICE_MESSAGES.kycNotApproved] });
        }
        const customer = await customerState(row.customer_id, transaction);
        if (customer.account_blocked) throw apiError(409, blockedMessage(customer, 'finance'));
        if (row.currency !== 'EUR') throw apiError(409, `Only EUR invoices can be financed; this one is in ${row.currency}`);
        if (!client.iban) throw apiError(409, `Client ${client.company_name} has no IBAN for the advance payout`);
        if (client.credit_limit === null) throw apiError(409, `Client ${client.company_name} has no credit limit; financing is not possible`);

        const { today, days } = (await selectOne<{ today: string; days: number }>(
          `SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today,
                  (CAST(:dueDate AS date) - ${SQL_BUSINESS_TODAY}) AS days`,
          { dueDate: row.due_date },
          { transaction },
        ))!;
        const amount = toCents(row.amount);
        const { factorAmount, factorFee, periods } = financingFigures({
          amountCents: amount,
          advanceRate: client.advance_rate,
          feeRate: client.fee_rate,
          days,
        });
        const limit = toCents(client.credit_limit);
        const used = toCents(client.used_credit);
        if (used + factorAmount > limit) {
          throw apiError(
            409,
            `Credit limit exceeded: used credit ${centsToDecimalString(used)} + advance ${centsToDecimalString(factorAmount)} > limit ${centsToDecimalString(limit)} EUR`,
          );
        }
        if (factorAmount + factorFee > amount) {
          throw apiError(
            409,
            `Advance ${centsToDecimalString(factorAmount)} plus fee ${centsToDecimalString(factorFee)} would exceed the invoice amount ${centsToDecimalString(amount)}`,
          );
        }

        await execute(
          `UPDATE invoices SET status = 'financed', factor_amount = :factorAmount, factor_fee = :factorFee,
                  financed_by = :actorId, financed_at = now()
            WHERE id = :id`,
          { id: row.id, actorId: args.actor.id, factorAmount: centsToDecimalString(factorAmount), factorFee: centsToDecimalString(factorFee) },
          { transaction },
        );
        await execute('UPDATE clients SET used_credit = used_credit + :advance WHERE id = :clientId', {
          clientId: row.client_id,
          advance: centsToDecimalString(factorAmount),
        }, { transaction });
        const { rows } = await execute<{ id: string }>(
          `INSERT INTO payouts (client_id, invoice_id, kind, amount, currency, iban, status, created_by)
           VALUES (:clientId, :invoiceId, 'advance', :amount, :currency, :iban, 'pending', :actorId)
           RETURNING id`,
          {
            clientId: row.client_id,
            invoiceId: row.id,
            amount: centsToDecimalString(factorAmount),
            currency: row.currency,
            iban: client.iban,
            actorId: args.actor.id,
          },
          { transaction },
        );
        // The fee e-invoice to the client, in this transaction: no financing without it, no e-invoice without the financing.
        const feeEInvoice = await issueFeeEInvoice(row.id, transaction);
        return {
          factorAmount: centsToNumber(factorAmount),
          factorFee: centsToNumber(factorFee),
          advanceRate: Number(client.advance_rate),
          feeRate: Number(client.fee_rate),
          financedOn: today,
          dueDate: row.due_date,
          days,
          feePeriods: periods,
          usedCreditBefore: centsToNumber(used),
          usedCreditAfter: centsToNumber(used + factorAmount),
          creditLimit: centsToNumber(limit),
          payoutId: rows[0].id,
          iban: client.iban,
          feeEInvoice: feeEInvoice?.number ?? null,
        };
      },
    },
    options,
  );
}

/** PUT /api/invoices/{id}/reject {reason} (manager): pending, verified or approved → rejected. */
export async function rejectInvoice(
  args: { actor: Actor; id: string; input: InvoiceRejectInput; ip?: string | null },
  options: { transaction?: Transaction } = {},
) {
  assertCan(args.actor, 'reject:invoice');
  const { reason } = parseInput(invoiceRejectSchema, args.input);
  return transition(
    args,
    {
      verb: 'reject',
      permission: 'reject:invoice',
      action: 'invoice_rejected',
      from: ['pending', 'verified', 'approved'],
      to: 'rejected',
      apply: async (row, transaction) => {
        await execute(
          `UPDATE invoices SET status = 'rejected', rejected_by = :actorId, rejected_at = now(), rejection_reason = :reason WHERE id = :id`,
          { id: row.id, actorId: args.actor.id, reason },
          { transaction },
        );
        // A rejected invoice ends a verification still under way; none of its steps tells the client of a verification.
        await applyEntityDecision(
          { workflowType: 'invoice_verification', entityId: row.id, decision: 'reject', actor: args.actor, summary: 'invoice rejected', reason },
          { transaction },
        );
        return { reason };
      },
    },
    options,
  );
}

// ---------------------------------------------------------------------------
// Reads

function searchCondition(q: string | null | undefined, replacements: Record<string, unknown>): string | null {
  const term = q?.trim();
  if (!term) return null;
  return invoiceSearchCondition('i', term, replacements);
}

/**
 * One page of invoices, newest first, and the full count of the same filter.
 * A searched list takes its matches first (MATERIALIZED) and then the page:
 * otherwise the planner may walk the date index past a million rows looking
 * for rare matches; and it counts the matches it already holds, so the
 * indexes are searched once, not again for the count. Otherwise `count` gives
 * the total (maintained totals where they apply).
 */
async function pageWithTotal<Row extends InvoiceListRow = InvoiceListRow>(
  where: string,
  replacements: Record<string, unknown>,
  { searched, extra = '', count }: { searched: boolean; extra?: string; count: () => Promise<number> },
): Promise<{ rows: Row[]; total: number }> {
  const select = (more: string) => (more ? SELECT_INVOICE.replace('SELECT i.*,', `SELECT i.*, ${more},`) : SELECT_INVOICE);
  if (!searched) {
    const [rows, total] = await Promise.all([
      selectRows<Row>(`${select(extra)} ${where} ORDER BY i.created_at DESC, i.id DESC LIMIT :limit OFFSET :offset`, replacements),
      count(),
    ]);
    return { rows, total };
  }
  const rows = await selectRows<Row & { match_total: number }>(
    `WITH matches AS MATERIALIZED (SELECT i.id, i.created_at FROM invoices i ${where}),
          page AS (SELECT id, created_at FROM matches ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset)
     ${select([extra, '(SELECT count(*)::int FROM matches) AS match_total'].filter(Boolean).join(', '))}
       JOIN page ON page.id = i.id ORDER BY page.created_at DESC, page.id DESC`,
    replacements,
  );
  // An empty page past the end says nothing about the total; an empty first page means none.
  const total = rows.length > 0 ? rows[0].match_total : Number(replacements.offset) > 0 ? await count() : 0;
  return { rows, total };
}

function uuidFilter(name: 'clientId' | 'customerId', value: string | null | undefined): string | null {
  if (!value) return null;
  if (!isUuid(value)) throw apiError(400, `Invalid ${name}`, { [name]: [`Invalid ${name}`] });
  return value.toLowerCase();
}

/** GET /api/invoices: newest first; `q` (number, description), `status`, `clientId`, `customerId`; the page and the full count. */
export async function listInvoices(
  options: { q?: string | null; status?: string | null; clientId?: string | null; customerId?: string | null; limit?: number; offset?: number } = {},
): Promise<{ items: InvoiceDto[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), 1000);
  const offset = Math.max(Math.trunc(options.offset ?? 0), 0);
  const replacements: Record<string, unknown> = { limit, offset };
  const conditions: string[] = [];
  const search = searchCondition(options.q, replacements);
  if (search) conditions.push(search);
  if (options.status) {
    if (!(INVOICE_STATUSES as readonly string[]).includes(options.status)) {
      throw apiError(400, INVOICE_MESSAGES.invalidStatus, { status: [INVOICE_MESSAGES.invalidStatus] });
    }
    replacements.status = options.status;
    conditions.push('i.status = :status');
  }
  const clientId = uuidFilter('clientId', options.clientId);
  if (clientId) {
    replacements.clientId = clientId;
    conditions.push('i.client_id = :clientId');
  }
  const customerId = uuidFilter('customerId', options.customerId);
  if (customerId) {
    replacements.customerId = customerId;
    conditions.push('i.customer_id = :customerId');
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  // The whole book or one status: the maintained totals; any other filter is counted.
  const byStatusOnly = !search && !clientId && !customerId;
  const { rows, total } = await pageWithTotal(where, replacements, {
    searched: Boolean(search),
    count: () =>
      byStatusOnly
        ? invoiceStatusTotals().then((totals) => (options.status ? totals[options.status as InvoiceStatus] : totals.all))
        : selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM invoices i ${where}`, replacements).then((row) => row?.total ?? 0),
  });
  return { items: rows.map(toInvoiceDto), total };
}

/** The /invoices tabs' counts over the same search, in one query. */
export async function invoiceTabCounts(options: { q?: string | null } = {}): Promise<InvoiceTabCounts> {
  const replacements: Record<string, unknown> = {};
  const search = searchCondition(options.q, replacements);
  if (!search) {
    const totals = await invoiceStatusTotals();
    return Object.fromEntries(INVOICE_TABS.map((tab) => [tab, totals[tab]])) as InvoiceTabCounts;
  }
  const row = await selectOne<InvoiceTabCounts>(
    `SELECT count(*)::int AS "all",
            count(*) FILTER (WHERE i.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE i.status = 'verified')::int AS verified,
            count(*) FILTER (WHERE i.status = 'approved')::int AS approved,
            count(*) FILTER (WHERE i.status = 'rejected')::int AS rejected
       FROM invoices i ${search ? `WHERE ${search}` : ''}`,
    replacements,
  );
  return Object.fromEntries(INVOICE_TABS.map((tab) => [tab, row?.[tab] ?? 0])) as InvoiceTabCounts;
}

/** GET /api/invoices/{id}: the invoice with its lines, parties, documents, payments, payouts and history. Throws 404. */
export async function getInvoiceDetail(id: string): Promise<InvoiceDetailDto> {
  const row = await readInvoice(id);
  if (!row) throw apiError(404, INVOICE_MESSAGES.notFound);
  const [lines, client, customer, documents, payments, payouts, history] = await Promise.all([
    selectRows<{
      id: string;
      line_number: number;
      description: string;
      quantity: string;
      unit_code: string;
      unit_price: string;
      net_amount: string;
      vat_category: string;
      vat_rate: string;
      kpd_code: string | null;
    }>('SELECT * FROM invoice_lines WHERE invoice_id = :id ORDER BY line_number', { id: row.id }),
    selectOne<{
      id: string;
      company_name: string;
      oib: string;
      iban: string | null;
      advance_rate: string;
      fee_rate: string;
      credit_limit: string | null;
      used_credit: string;
    }>('SELECT id, company_name, oib, iban, advance_rate, fee_rate, credit_limit, used_credit FROM clients WHERE id = :id', { id: row.client_id }),
    selectOne<{ id: string; company_name: string; oib: string; account_blocked: boolean; blockage_reason: string | null }>(
      'SELECT id, company_name, oib, account_blocked, blockage_reason FROM customers WHERE id = :id',
      { id: row.customer_id },
    ),
    selectRows<{ id: string; name: string; type: string; mime_type: string; size: number; created_at: Date }>(
      `SELECT id, name, type, mime_type, size, created_at FROM documents
        WHERE entity_type = 'invoice' AND entity_id = :id ORDER BY created_at DESC, id DESC`,
      { id: row.id },
    ),
    selectRows<{
      id: string;
      amount: string;
      currency: string;
      payment_method: string;
      status: string;
      reference: string | null;
      created_at: Date;
      processed_at: Date | null;
    }>('SELECT * FROM payments WHERE invoice_id = :id ORDER BY created_at DESC, id DESC', { id: row.id }),
    selectRows<{ id: string; kind: string; amount: string; currency: string; iban: string; status: string; created_at: Date }>(
      'SELECT * FROM payouts WHERE invoice_id = :id ORDER BY created_at, id',
      { id: row.id },
    ),
    selectRows<{
      id: string;
      action: string;
      user_id: string | null;
      user_name: string | null;
      user_email: string | null;
      ip_address: string | null;
      details: Record<string, unknown>;
      created_at: Date;
    }>(
      `SELECT a.id, a.action, a.user_id, a.ip_address, a.details, a.created_at, u.email AS user_email,
              nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS user_name
         FROM activity_logs a LEFT JOIN users u ON u.id = a.user_id
        WHERE a.entity_type = 'invoice' AND a.entity_id = :id
        ORDER BY a.created_at, a.id`,
      { id: row.id },
    ),
  ]);
  return {
    ...toInvoiceDto(row),
    rejectionReason: row.rejection_reason,
    ublDocumentId: row.ubl_document_id,
    verifiedAt: iso(row.verified_at),
    approvedAt: iso(row.approved_at),
    financedAt: iso(row.financed_at),
    rejectedAt: iso(row.rejected_at),
    paidAt: iso(row.paid_at),
    updatedAt: iso(row.updated_at)!,
    lines: lines.map((line) => ({
      id: line.id,
      lineNumber: line.line_number,
      description: line.description,
      quantity: line.quantity,
      unitCode: line.unit_code,
      unitPrice: line.unit_price,
      netAmount: money(line.net_amount),
      vatCategory: line.vat_category,
      vatRate: Number(line.vat_rate),
      kpdCode: line.kpd_code,
    })),
    client: {
      id: client!.id,
      companyName: client!.company_name,
      oib: client!.oib,
      iban: client!.iban,
      advanceRate: Number(client!.advance_rate),
      feeRate: Number(client!.fee_rate),
      creditLimit: moneyOrNull(client!.credit_limit),
      usedCredit: money(client!.used_credit),
    },
    customer: {
      id: customer!.id,
      companyName: customer!.company_name,
      oib: customer!.oib,
      accountBlocked: customer!.account_blocked,
      blockageReason: customer!.blockage_reason,
    },
    documents: documents.map((doc) => ({
      id: doc.id,
      name: doc.name,
      type: doc.type,
      mimeType: doc.mime_type,
      size: Number(doc.size),
      createdAt: iso(doc.created_at)!,
    })),
    payments: payments.map((payment) => ({
      id: payment.id,
      amount: money(payment.amount),
      currency: payment.currency,
      paymentMethod: payment.payment_method,
      status: payment.status,
      reference: payment.reference,
      createdAt: iso(payment.created_at)!,
      processedAt: iso(payment.processed_at),
    })),
    payouts: payouts.map((payout) => ({
      id: payout.id,
      kind: payout.kind,
      amount: money(payout.amount),
      currency: payout.currency,
      iban: payout.iban,
      status: payout.status,
      createdAt: iso(payout.created_at)!,
    })),
    history: history.map((entry) => ({
      id: entry.id,
      action: entry.action,
      userId: entry.user_id,
      userName: entry.user_name,
      userEmail: entry.user_email,
      ipAddress: entry.ip_address,
      details: entry.details,
      createdAt: iso(entry.created_at)!,
    })),
  };
}

/**
 * GET /api/invoices/payable and the record-payment form: financed invoices a
 * new payment may still go to (amount above the confirmed and pending
 * payments), newest first, with that open amount; `q` as the list. The
 * definition is the one recording checks (app/payments/open-amount.server.ts).
 */
export async function listPayableInvoices(
  options: { q?: string | null; limit?: number; offset?: number } = {},
): Promise<{ items: PayableInvoiceDto[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), 1000);
  const offset = Math.max(Math.trunc(options.offset ?? 0), 0);
  const replacements: Record<string, unknown> = { limit, offset };
  const conditions = [payableSql('i')];
  const search = searchCondition(options.q, replacements);
  if (search) conditions.push(search);
  const where = `WHERE ${conditions.join(' AND ')}`;
  const { rows, total } = await pageWithTotal<InvoiceListRow & { open_for_payment: string }>(where, replacements, {
    searched: Boolean(search),
    extra: `${openForPaymentSql('i')} AS open_for_payment`,
    count: () => selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM invoices i ${where}`, replacements).then((row) => row?.total ?? 0),
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      invoiceNumber: row.invoice_number,
      customerName: row.customer_name,
      amount: money(row.amount),
      currency: row.currency,
      clientId: row.client_id,
      clientName: row.client_name,
      customerId: row.customer_id,
      paidAmount: money(row.paid_amount),
      pendingAmount: money(row.pending_amount),
      openAmount: money(row.open_for_payment),
      dueDate: row.due_date,
    })),
    total,
  };
}
