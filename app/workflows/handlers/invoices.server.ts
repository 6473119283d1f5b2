import { selectOne, selectRows } from '../../db.server.ts';
import { activeTemplateFor } from '../../email/templates.server.ts';
import { centsToDecimalString, toCents } from '../../utils/money.ts';
import { PermanentStepError } from '../step-errors.server.ts';
import type { StepContext, StepOutcome } from '../types.ts';
import { partyOf, sendOrDescribe } from './parties.server.ts';
import type { Client, Customer, Invoice } from '../../../db/models/index.ts';
import type { RowOf } from '../../../db/models/rows.ts';

/** Handlers of invoice_verification: the invoice's data, duplicates, and the client's notice. */

type InvoiceRow = RowOf<typeof Invoice, 'id' | 'invoice_number' | 'status' | 'amount' | 'currency' | 'issue_date' | 'due_date' | 'client_id' | 'customer_id'> & {
  client_status: RowOf<typeof Client>['status'] | null;
  customer_blocked: RowOf<typeof Customer>['account_blocked'] | null;
};

/** The statuses of an invoice that has passed verification (a charged-back or written-off one was financed, docs/lifecycle.md). */
const VERIFIED_STATUSES = ['verified', 'approved', 'financed', 'paid', 'charged_back', 'written_off'];

async function invoiceOf({ instance, transaction }: StepContext): Promise<InvoiceRow> {
  if (instance.entityType !== 'invoice') throw new PermanentStepError(`This step needs an invoice, not a ${instance.entityType}`);
  const row = await selectOne<InvoiceRow>(
    `SELECT i.id, i.invoice_number, i.status, i.amount, i.currency, i.issue_date::text AS issue_date, i.due_date::text AS due_date,
            i.client_id, i.customer_id, cl.status AS client_status, cu.account_blocked AS customer_blocked
       FROM invoices i LEFT JOIN clients cl ON cl.id = i.client_id LEFT JOIN customers cu ON cu.id = i.customer_id
      WHERE i.id = :id`,
    { id: instance.entityId },
    { transaction },
  );
  if (!row) throw new PermanentStepError(`Invoice ${instance.entityId} not found`);
  return row;
}

/** Required fields and amounts; a problem fails the instance with every problem listed (restart after correcting). */
export async function validateInvoice(context: StepContext): Promise<StepOutcome> {
  const invoice = await invoiceOf(context);
  const problems: string[] = [];
  if (!invoice.invoice_number.trim()) problems.push('invoice number is missing');
  if (toCents(invoice.amount) <= 0) problems.push('amount must be positive');
  if (invoice.due_date < invoice.issue_date) problems.push('due date is before the issue date');
  if (invoice.status === 'rejected') problems.push('invoice is rejected');
  if (invoice.client_status !== 'active') problems.push(`client is ${invoice.client_status ?? 'missing'}`);
  if (invoice.customer_blocked) problems.push("customer's account is blocked");
  if (problems.length > 0) throw new PermanentStepError(`Invoice ${invoice.invoice_number} failed validation: ${problems.join('; ')}`);
  return {
    summary: `invoice ${invoice.invoice_number} valid: ${centsToDecimalString(toCents(invoice.amount))} ${invoice.currency}, due ${invoice.due_date}`,
    invoiceNumber: invoice.invoice_number,
  };
}

/** The same number from the same client, or the same customer, amount and issue date, on another live invoice. */
export async function checkDuplicateInvoice(context: StepContext): Promise<StepOutcome> {
  const invoice = await invoiceOf(context);
  const duplicates = await selectRows<RowOf<typeof Invoice, 'id' | 'invoice_number'>>(
    `SELECT id, invoice_number FROM invoices
      WHERE id <> :id AND status <> 'rejected'
        AND ((client_id = :clientId AND lower(btrim(invoice_number)) = lower(btrim(:number)))
          OR (customer_id = :customerId AND amount = CAST(:amount AS numeric) AND issue_date = CAST(:issueDate AS date)))
      ORDER BY created_at LIMIT 5`,
    {
      id: invoice.id,
      clientId: invoice.client_id,
      number: invoice.invoice_number,
      customerId: invoice.customer_id,
      amount: invoice.amount,
      issueDate: invoice.issue_date,
    },
    { transaction: context.transaction },
  );
  if (duplicates.length > 0) {
    throw new PermanentStepError(`Possible duplicate of invoice ${duplicates.map((row) => row.invoice_number).join(', ')}`);
  }
  return { summary: 'no duplicate found', duplicates: [] };
}

/**
 * The client's notice that the invoice passed verification. The manual step
 * before it can be completed whatever the manager decided on the invoice, so
 * the notice goes out only for an invoice that was verified (and not rejected since).
 */
export async function sendInvoiceVerifiedEmail(context: StepContext): Promise<StepOutcome> {
  const invoice = await invoiceOf(context);
  if (!VERIFIED_STATUSES.includes(invoice.status)) {
    return { summary: `skipped: invoice ${invoice.invoice_number} is ${invoice.status}, not verified`, sent: false };
  }
  const client = await partyOf(context, { invoiceParty: 'client' });
  if (!client.email) return { summary: 'skipped: the client has no email address', sent: false };
  // With an active invoice_verified template, verifying the invoice sends it (verifyInvoice); not twice.
  if (await activeTemplateFor('invoice_verified', context.transaction)) {
    return { summary: 'skipped: the invoice_verified template is sent when the invoice is verified', sent: false };
  }
  return sendOrDescribe(
    context,
    {
      to: client.email,
      subject: `Faktura ${invoice.invoice_number} je provjerena`,
      text: `Poštovani, ${client.companyName},\n\nfaktura ${invoice.invoice_number} (${centsToDecimalString(toCents(invoice.amount))} ${invoice.currency}) prošla je provjeru.\n`,
    },
    'invoice verified notice',
  );
}
