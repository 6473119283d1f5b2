import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan, type Permission } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { inTransaction, selectOne } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { INVOICE_MESSAGES, INVOICE_REFUSALS, type InvoiceStatus } from './schemas.ts';
import { isUuid } from '../utils/validation.ts';
import { readInvoice, toInvoiceDto, type InvoiceDto, type InvoiceRow } from './invoice-dto.server.ts';
import { money } from '../utils/api-values.ts';
import type { Customer } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

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
 *
 * This module is the one transition they all run through; the decisions are
 * ./invoice-decisions.server.ts, financing ./financing.server.ts.
 */

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

export async function transition(
  { actor, id, ip }: { actor: Actor; id: string; ip?: string | null },
  spec: TransitionSpec,
  options: { transaction?: Transaction } = {},
): Promise<InvoiceDto> {
  assertCan(actor, spec.permission);
  const run = async (transaction: Transaction) => {
    const row = isUuid(id) ? await selectOne<InvoiceRow>('SELECT * FROM invoices WHERE id = :id FOR UPDATE', { id }, { transaction }) : null;
    if (!row) throw apiError(404, INVOICE_MESSAGES.notFound);
    if (!spec.from.includes(row.status)) throw apiError(409, INVOICE_REFUSALS.wrongState, { params: { status: row.status, verb: spec.verb } });
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

export async function customerState(customerId: string, transaction: Transaction) {
  return (await selectOne<RowOf<typeof Customer, 'company_name' | 'account_blocked' | 'blockage_reason'>>(
    'SELECT company_name, account_blocked, blockage_reason FROM customers WHERE id = :customerId',
    { customerId },
    { transaction },
  ))!;
}

/** 409 for a customer whose account is blocked; the reason, when staff gave one, is part of the text. */
export function blockedRefusal(customer: RowOf<typeof Customer, 'company_name' | 'blockage_reason'>, verb: string): Response {
  const name = customer.company_name;
  return customer.blockage_reason
    ? apiError(409, INVOICE_REFUSALS.blockedWithReason, { params: { name, reason: customer.blockage_reason, verb } })
    : apiError(409, INVOICE_REFUSALS.blocked, { params: { name, verb } });
}
