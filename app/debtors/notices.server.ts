import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { agreementInForce, AGREEMENT_COLUMNS, type AgreementRow } from '../agreements/in-force.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { inTransaction, execute, selectOne, selectRows } from '../db.server.ts';
import { deleteObjectIfUnreferenced, storeDocument } from '../documents/documents.server.ts';
import { factorParty } from '../einvoices/factor-party.server.ts';
import { createTask } from '../tasks/tasks.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { iso } from '../utils/api-values.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import type { Client, Customer, Invoice } from '../../db/models/index.ts';
import type { DebtorNoticeOccasion } from '../../db/models/enums.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { createAndMailLink, noMailRefusal, readDebtorLink, waitingInvoices, type DebtorLinkDto } from './links.server.ts';
import { noticePdf, type NoticeParty } from './notice-pdf.server.ts';
import { confirmationRequestSchema, DEBTOR_ERRORS, type ConfirmationRequestInput } from './schemas.ts';

/**
 * The notice of assignment (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation).
 * Under a disclosed agreement the debtor learns of the assignment from the
 * first mail the factor sends it: at the pair's first financing (hooked into
 * app/invoices/financing.server.ts, in the financing's transaction), or
 * earlier when staff ask the debtor to confirm its invoices. Each notice is a
 * PDF among the debtor's documents and a debtor_notices row; it goes out with
 * the debtor's personal link (./links.server.ts), or, for a debtor without an
 * email address, a task asks the staff to deliver it by hand.
 */

type PartyRow = RowOf<typeof Client, 'company_name' | 'oib' | 'address' | 'postal_code' | 'city'>;
const party = (row: PartyRow): NoticeParty => ({ companyName: row.company_name, oib: row.oib, address: row.address, postalCode: row.postal_code, city: row.city });

export interface NoticeOutcome {
  noticeId: string;
  documentId: string;
  /** The link mailed with it; null when the debtor has no address (then taskId). */
  link: { id: string; token: string; expiresAt: string; emailLogId: string } | null;
  taskId: string | null;
}

/**
 * Writes the pair's notice under `agreement`: the PDF (the financed invoices of
 * the pair so far, with their payment references), stored on the debtor, and
 * either a link mailed with it or, when no mail can go, a task on the debtor
 * to deliver it by hand (`requireMail` refuses instead, with 409). Logged as
 * 'debtor_notice_issued'. Stored files of a transaction that later rolls back
 * are listed in `stored` for the caller to remove.
 */
async function issueNotice(
  input: {
    clientId: string;
    customerId: string;
    agreement: AgreementRow;
    occasion: DebtorNoticeOccasion;
    invoiceId: string | null;
    actor: Actor;
    ip?: string | null;
    requireMail?: boolean;
  },
  transaction: Transaction,
  stored: string[] = [],
): Promise<NoticeOutcome> {
  const columns = 'company_name, oib, address, postal_code, city';
  const client = (await selectOne<PartyRow>(`SELECT ${columns} FROM clients WHERE id = :id`, { id: input.clientId }, { transaction }))!;
  const debtor = (await selectOne<PartyRow & RowOf<typeof Customer, 'email'>>(
    `SELECT ${columns}, email FROM customers WHERE id = :id`,
    { id: input.customerId },
    { transaction },
  ))!;
  const { today } = (await selectOne<{ today: string }>(`SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today`, {}, { transaction }))!;
  const invoices = await selectRows<RowOf<typeof Invoice, 'invoice_number' | 'issue_date' | 'due_date' | 'amount' | 'currency' | 'payment_reference'>>(
    `SELECT invoice_number, to_char(issue_date, 'YYYY-MM-DD') AS issue_date, to_char(due_date, 'YYYY-MM-DD') AS due_date, amount, currency, payment_reference
       FROM invoices WHERE client_id = :clientId AND customer_id = :customerId AND financed_at IS NOT NULL AND status = 'financed'
      ORDER BY financed_at, invoice_number`,
    { clientId: input.clientId, customerId: input.customerId },
    { transaction },
  );
  const bytes = await noticePdf({
    client: party(client),
    debtor: party(debtor),
    factor: factorParty(),
    agreementNumber: input.agreement.number,
    day: today,
    invoices: invoices.map((row) => ({
      number: row.invoice_number,
      issueDate: row.issue_date,
      dueDate: row.due_date,
      amount: row.amount,
      currency: row.currency,
      paymentReference: row.payment_reference,
    })),
  });
  const name = `Obavijest o ustupanju ${client.company_name} ${today}.pdf`;
  const document = await storeDocument(
    {
      actor: input.actor,
      bytes,
      fileName: `obavijest-o-ustupanju-${today}.pdf`,
      declaredMime: 'application/pdf',
      name: name.slice(0, 255),
      type: 'contract',
      entityType: 'customer',
      entityId: input.customerId,
      ip: input.ip,
    },
    { transaction },
  );
  const key = await selectOne<{ storage_key: string }>(`SELECT storage_key FROM documents WHERE id = :id`, { id: document.id }, { transaction });
  stored.push(key!.storage_key);

  const { rows } = await execute<{ id: string }>(
    `INSERT INTO debtor_notices (client_id, customer_id, agreement_id, document_id, occasion, invoice_id, created_by)
     VALUES (:clientId, :customerId, :agreementId, :documentId, :occasion, :invoiceId, :actorId) RETURNING id`,
    {
      clientId: input.clientId,
      customerId: input.customerId,
      agreementId: input.agreement.id,
      documentId: document.id,
      occasion: input.occasion,
      invoiceId: input.invoiceId,
      actorId: input.actor.id,
    },
    { transaction },
  );
  const noticeId = rows[0].id;
  const link = await createAndMailLink({ noticeId, invoiceId: input.invoiceId, actorId: input.actor.id }, transaction);
  let taskId: string | null = null;
  if (!link) {
    if (input.requireMail) throw await noMailRefusal(input.customerId, transaction);
    taskId = (
      await createTask(
        {
          actor: input.actor,
          input: {
            title: `Uručiti obavijest o ustupanju: ${debtor.company_name}`.slice(0, 255),
            description:
              `Dužnik ${debtor.company_name} nema adresu e-pošte. Obavijest o ustupanju potraživanja klijenta ${client.company_name} ` +
              `(dokument „${name}” među dokumentima dužnika) treba uručiti poštom ili osobno; potvrdu dužnika zatražite nakon unosa adrese.`,
            type: 'customer_contact',
            priority: 'high',
            entityType: 'customer',
            entityId: input.customerId,
          },
          ip: input.ip,
        },
        { transaction },
      )
    ).id;
  }
  await execute(`UPDATE debtor_notices SET email_log_id = :logId, task_id = :taskId WHERE id = :id`, { id: noticeId, logId: link?.emailLogId ?? null, taskId }, { transaction });
  await logActivity(
    {
      action: 'debtor_notice_issued',
      userId: input.actor.id,
      entityType: 'customer',
      entityId: input.customerId,
      ipAddress: input.ip,
      details: {
        noticeId,
        clientId: input.clientId,
        clientName: client.company_name,
        occasion: input.occasion,
        invoiceId: input.invoiceId,
        agreementId: input.agreement.id,
        agreementNumber: input.agreement.number,
        agreementVersion: input.agreement.version,
        documentId: document.id,
        invoices: invoices.length,
        ...(link ? { linkId: link.id, emailLogId: link.emailLogId, expiresAt: iso(link.expiresAt) } : { taskId, to: null }),
      },
    },
    transaction,
  );
  return {
    noticeId,
    documentId: document.id,
    link: link ? { id: link.id, token: link.token, expiresAt: iso(link.expiresAt), emailLogId: link.emailLogId } : null,
    taskId,
  };
}

/**
 * Financing's hook (app/invoices/financing.server.ts, after the ledger
 * posting, inside its transaction, with the client row locked): the pair's
 * first financing under a disclosed agreement writes the notice; a pair that
 * already has one, and an undisclosed agreement, write none.
 */
export async function noticeOnFinancing(
  input: { invoice: { id: string; client_id: string; customer_id: string }; agreement: AgreementRow; actor: Actor; ip?: string | null },
  transaction: Transaction,
): Promise<NoticeOutcome | null> {
  if (!input.agreement.disclosed) return null;
  const existing = await selectOne(
    `SELECT 1 AS found FROM debtor_notices WHERE client_id = :clientId AND customer_id = :customerId LIMIT 1`,
    {
      clientId: input.invoice.client_id,
      customerId: input.invoice.customer_id,
    },
    { transaction },
  );
  if (existing) return null;
  return issueNotice(
    {
      clientId: input.invoice.client_id,
      customerId: input.invoice.customer_id,
      agreement: input.agreement,
      occasion: 'financing',
      invoiceId: input.invoice.id,
      actor: input.actor,
      ip: input.ip,
    },
    transaction,
  );
}

/**
 * POST /api/debtor-links {clientId, customerId} (manager) and the customer
 * page: ask the debtor to confirm the pair's open invoices, at any time (also
 * before financing). The agreement in force today, or else the client's
 * latest version, must be disclosed: a silent agreement never contacts the
 * debtor (409). A new notice with the current invoices goes out with a new
 * link (the debtor_notice template); the pair's earlier open links are revoked.
 * 409 without an invoice to confirm or without a way to mail; nothing is written then.
 */
export async function requestDebtorConfirmation({ actor, input, ip }: { actor: Actor; input: ConfirmationRequestInput | unknown; ip?: string | null }): Promise<DebtorLinkDto> {
  assertCan(actor, 'manage:debtor_links');
  const { clientId, customerId } = parseInput(confirmationRequestSchema, input);
  const stored: string[] = [];
  try {
    return await inTransaction(async (transaction) => {
      // The client row first, as financing takes it: a financing and a request of one pair queue.
      const client = await selectOne<RowOf<typeof Client, 'company_name'>>(`SELECT company_name FROM clients WHERE id = :clientId FOR UPDATE`, { clientId }, { transaction });
      if (!client) throw apiError(404, DEBTOR_ERRORS.clientNotFound);
      const debtor = await selectOne<RowOf<typeof Customer, 'company_name' | 'email'>>(
        `SELECT company_name, email FROM customers WHERE id = :customerId`,
        { customerId },
        { transaction },
      );
      if (!debtor) throw apiError(404, DEBTOR_ERRORS.customerNotFound);
      if (!debtor.email?.trim()) throw apiError(409, DEBTOR_ERRORS.noEmail, { params: { name: debtor.company_name } });
      const { today } = (await selectOne<{ today: string }>(`SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today`, {}, { transaction }))!;
      const agreement =
        (await agreementInForce(clientId, today, { transaction })) ??
        (await selectOne<AgreementRow>(`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE client_id = :clientId ORDER BY version DESC LIMIT 1`, { clientId }, { transaction }));
      if (!agreement) throw apiError(409, DEBTOR_ERRORS.noAgreement, { params: { name: client.company_name } });
      if (!agreement.disclosed) throw apiError(409, DEBTOR_ERRORS.undisclosed, { params: { name: client.company_name, number: agreement.number } });
      if ((await waitingInvoices(clientId, customerId, transaction)) === 0) {
        throw apiError(409, DEBTOR_ERRORS.noInvoices, { params: { client: client.company_name, debtor: debtor.company_name } });
      }
      const revoked = await execute<{ id: string }>(
        `UPDATE debtor_links SET revoked_at = now(), revoked_by = :actorId
          WHERE client_id = :clientId AND customer_id = :customerId AND revoked_at IS NULL AND spent_at IS NULL AND expires_at > now()
          RETURNING id`,
        { clientId, customerId, actorId: actor.id },
        { transaction },
      );
      const notice = await issueNotice({ clientId, customerId, agreement, occasion: 'request', invoiceId: null, actor, ip, requireMail: true }, transaction, stored);
      await logActivity(
        {
          action: 'debtor_confirmation_requested',
          userId: actor.id,
          entityType: 'customer',
          entityId: customerId,
          ipAddress: ip,
          details: { clientId, noticeId: notice.noticeId, linkId: notice.link!.id, revokedLinkIds: revoked.rows.map((row) => row.id) },
        },
        transaction,
      );
      return readDebtorLink(notice.link!.id, transaction);
    });
  } catch (error) {
    await Promise.all(stored.map((key) => deleteObjectIfUnreferenced(key).catch(() => {})));
    throw error;
  }
}
