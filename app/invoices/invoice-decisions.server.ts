import type { Transaction } from 'sequelize';
import type { Actor } from '../auth/users.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { sendInvoiceVerifiedTemplate } from '../email/triggers.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { INVOICE_REFUSALS, invoiceRejectSchema, type InvoiceRejectInput } from './schemas.ts';
import { applyEntityDecision } from '../workflows/decisions.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { InvoiceRow } from './invoice-dto.server.ts';
import { blockedRefusal, customerState, transition } from './invoice-transition.server.ts';
import { assertVerifiable } from '../debtors/disputes.server.ts';
import type { Client, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * The managers' decisions on an invoice before financing: verify (with the
 * duplicate rule), approve (four eyes) and reject, each one transition
 * (./invoice-transition.server.ts). Financing is ./financing.server.ts.
 */

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
  return selectOne<RowOf<typeof Invoice, 'invoice_number' | 'status'> & { client_name: RowOf<typeof Client>['company_name']; rule: 'same_receivable' | 'financed_elsewhere' }>(
    `SELECT i.invoice_number, i.status, c.company_name AS client_name,
            CASE WHEN i.client_id = :clientId THEN 'same_receivable' ELSE 'financed_elsewhere' END AS rule
       FROM invoices i JOIN clients c ON c.id = i.client_id
      WHERE i.id <> :id AND i.status <> 'rejected' AND i.customer_id = :customerId AND i.amount = :amount
        AND (
          (i.client_id = :clientId AND i.issue_date = :issueDate)
          OR (i.client_id <> :clientId AND i.status IN ('financed', 'paid', 'charged_back', 'written_off')
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
        if (customer.account_blocked) throw blockedRefusal(customer, 'verify');
        // Disputed, or waiting for the debtor's confirmation the agreement requires (docs/collections.md).
        await assertVerifiable(row, transaction);
        const duplicate = await findDuplicate(row, transaction);
        if (duplicate) {
          throw duplicate.rule === 'same_receivable'
            ? apiError(409, INVOICE_REFUSALS.duplicate, { params: { number: duplicate.invoice_number, status: duplicate.status } })
            : apiError(409, INVOICE_REFUSALS.duplicateElsewhere, { params: { number: duplicate.invoice_number, status: duplicate.status, client: duplicate.client_name } });
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
          throw apiError(403, INVOICE_REFUSALS.fourEyes);
        }
        await execute(
          `UPDATE invoices SET status = 'approved', approved_by = :actorId, approved_at = now() WHERE id = :id`,
          {
            id: row.id,
            actorId: args.actor.id,
          },
          { transaction },
        );
        return { verifiedBy: row.verified_by };
      },
    },
    options,
  );
}

/** PUT /api/invoices/{id}/reject {reason} (manager): pending, verified or approved → rejected. */
export async function rejectInvoice(args: { actor: Actor; id: string; input: InvoiceRejectInput; ip?: string | null }, options: { transaction?: Transaction } = {}) {
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
