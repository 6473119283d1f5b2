import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectPage, selectRows } from '../db.server.ts';
import { sendDebtorEmail } from '../email/send.server.ts';
import { factorAccount } from '../banking/factor-account.server.ts';
import { getEnv } from '../env.server.ts';
import { getObjectStore, sha256Hex } from '../storage/object-store.server.ts';
import { createTask } from '../tasks/tasks.server.ts';
import { apiError } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { isUuid } from '../utils/validation.ts';
import type { Client, Customer, DebtorLink, Document, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { insertDispute } from './disputes.server.ts';
import { DEBTOR_ERRORS, DEBTOR_LINK_TTL_DAYS, OFFERED_STATUSES, DEBTOR_PAGE_INVOICES, parseDebtorAnswers, type DebtorFormErrors } from './schemas.ts';

/**
 * The debtor's personal link (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation):
 * 32 random bytes in base64url, of which only the SHA-256 is stored (like the
 * KYC document requests of app/onboarding/kyc-decision.server.ts). A link is
 * for one client–debtor pair and its notice of assignment; it works for 30
 * days, until the debtor's one submit spends it, or until staff revoke it (a
 * resend revokes the link it replaces). Staff list, resend and revoke links
 * here; the public page (app/routes/debtor.$token.tsx) reads and answers
 * through linkState and submitDebtorAnswers.
 */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => sha256Hex(Buffer.from(token, 'utf8'));

const OFFERED_SQL = `i.status IN (${OFFERED_STATUSES.map((status) => `'${status}'`).join(', ')})
  AND NOT i.disputed AND NOT EXISTS (SELECT 1 FROM debtor_answers a WHERE a.invoice_id = i.id)`;

export function debtorLinkUrl(token: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, '')}/debtor/${token}`;
}

// ---------------------------------------------------------------------------
// Writing a link and its mail

export interface NewLink {
  id: string;
  token: string;
  expiresAt: Date;
  emailLogId: string;
}

/**
 * A new link for the pair of `noticeId`, mailed to the debtor with the notice
 * attached (the debtor_notice template), in the caller's transaction. Null,
 * with nothing written, when no mail can go (the debtor has no address, or
 * staff retired the template): the caller opens a task or refuses.
 */
export async function createAndMailLink(
  input: { noticeId: string; invoiceId: string | null; actorId: string | null; replacesId?: string | null },
  transaction: Transaction,
): Promise<NewLink | null> {
  const notice = (await selectOne<{ client_id: string; customer_id: string; document_id: string; company_name: string }>(
    `SELECT n.client_id, n.customer_id, n.document_id, c.company_name FROM debtor_notices n JOIN clients c ON c.id = n.client_id WHERE n.id = :id`,
    { id: input.noticeId },
    { transaction },
  ))!;
  const token = randomBytes(32).toString('base64url');
  const { rows } = await execute<{ id: string; expires_at: Date }>(
    `INSERT INTO debtor_links (client_id, customer_id, notice_id, token_hash, expires_at, replaces_id, created_by)
     VALUES (:clientId, :customerId, :noticeId, :hash, now() + make_interval(days => :days), :replacesId, :actorId)
     RETURNING id, expires_at`,
    {
      clientId: notice.client_id,
      customerId: notice.customer_id,
      noticeId: input.noticeId,
      hash: hashToken(token),
      days: DEBTOR_LINK_TTL_DAYS,
      replacesId: input.replacesId ?? null,
      actorId: input.actorId,
    },
    { transaction },
  );
  const link = rows[0];
  const mail = await sendDebtorEmail(
    'debtor_notice',
    {
      customerId: notice.customer_id,
      clientId: notice.client_id,
      invoiceId: input.invoiceId,
      variables: { company_name: notice.company_name, debtor_link: debtorLinkUrl(token) },
      attachments: [notice.document_id],
    },
    transaction,
  );
  if (!mail.queued) {
    await execute(`DELETE FROM debtor_links WHERE id = :id`, { id: link.id }, { transaction });
    return null;
  }
  await execute(`UPDATE debtor_links SET email_log_id = :logId WHERE id = :id`, { id: link.id, logId: mail.logId }, { transaction });
  return { id: link.id, token, expiresAt: link.expires_at, emailLogId: mail.logId };
}

/** 409 for a mail that cannot go: no address, or no active debtor_notice template. */
export async function noMailRefusal(customerId: string, transaction: Transaction): Promise<Response> {
  const debtor = await selectOne<RowOf<typeof Customer, 'company_name' | 'email'>>(`SELECT company_name, email FROM customers WHERE id = :id`, { id: customerId }, { transaction });
  return debtor?.email?.trim()
    ? apiError(409, DEBTOR_ERRORS.noTemplate, { params: { name: debtor.company_name } })
    : apiError(409, DEBTOR_ERRORS.noEmail, { params: { name: debtor?.company_name ?? '' } });
}

// ---------------------------------------------------------------------------
// Staff: the customer page's list, resend and revoke

export type DebtorLinkStatus = 'open' | 'spent' | 'revoked' | 'expired';

export interface DebtorLinkDto {
  id: string;
  clientId: string;
  clientName: string;
  customerId: string;
  status: DebtorLinkStatus;
  createdAt: string;
  createdBy: string | null;
  expiresAt: string;
  spentAt: string | null;
  acknowledgedAt: string | null;
  submittedIp: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  replacesId: string | null;
  noticeId: string;
  noticeDocumentId: string;
  noticeUrl: string;
  emailLogId: string | null;
  confirmed: number;
  disputed: number;
}

type LinkRow = RowOf<
  typeof DebtorLink,
  'id' | 'client_id' | 'customer_id' | 'notice_id' | 'created_at' | 'expires_at' | 'spent_at' | 'acknowledged_at' | 'submitted_ip' | 'revoked_at' | 'replaces_id' | 'email_log_id'
> & {
  client_name: RowOf<typeof Client>['company_name'];
  document_id: string;
  created_by_name: string | null;
  revoked_by_name: string | null;
  expired: boolean;
  confirmed: number;
  disputed: number;
};

const SELECT_LINK = `
  SELECT l.id, l.client_id, l.customer_id, l.notice_id, l.created_at, l.expires_at, l.spent_at, l.acknowledged_at, l.submitted_ip,
         l.revoked_at, l.replaces_id, l.email_log_id, c.company_name AS client_name, n.document_id, l.expires_at <= now() AS expired,
         ${sqlUserName('cu')} AS created_by_name, ${sqlUserName('ru')} AS revoked_by_name,
         (SELECT count(*)::int FROM debtor_answers a WHERE a.link_id = l.id AND a.answer = 'confirmed') AS confirmed,
         (SELECT count(*)::int FROM debtor_answers a WHERE a.link_id = l.id AND a.answer = 'disputed') AS disputed
    FROM debtor_links l
    JOIN clients c ON c.id = l.client_id
    JOIN debtor_notices n ON n.id = l.notice_id
    LEFT JOIN users cu ON cu.id = l.created_by
    LEFT JOIN users ru ON ru.id = l.revoked_by`;

function statusOf(row: { spent_at: Date | null; revoked_at: Date | null; expired: boolean }): DebtorLinkStatus {
  if (row.spent_at) return 'spent';
  if (row.revoked_at) return 'revoked';
  return row.expired ? 'expired' : 'open';
}

function toDto(row: LinkRow): DebtorLinkDto {
  return {
    id: row.id,
    clientId: row.client_id,
    clientName: row.client_name,
    customerId: row.customer_id,
    status: statusOf(row),
    createdAt: iso(row.created_at),
    createdBy: row.created_by_name,
    expiresAt: iso(row.expires_at),
    spentAt: iso(row.spent_at),
    acknowledgedAt: iso(row.acknowledged_at),
    submittedIp: row.submitted_ip,
    revokedAt: iso(row.revoked_at),
    revokedBy: row.revoked_by_name,
    replacesId: row.replaces_id,
    noticeId: row.notice_id,
    noticeDocumentId: row.document_id,
    noticeUrl: `/api/documents/${row.document_id}/download`,
    emailLogId: row.email_log_id,
    confirmed: row.confirmed,
    disputed: row.disputed,
  };
}

export async function readDebtorLink(id: string, transaction?: Transaction): Promise<DebtorLinkDto> {
  const row = isUuid(id) ? await selectOne<LinkRow>(`${SELECT_LINK} WHERE l.id = :id`, { id }, { transaction }) : null;
  if (!row) throw apiError(404, DEBTOR_ERRORS.linkNotFound);
  return toDto(row);
}

/** GET /api/customers/{id}/debtor-links and the customer page: newest first, one page and the count. 404 for an unknown customer. */
export async function listDebtorLinks(customerId: string, page: { limit: number; offset: number }): Promise<{ links: DebtorLinkDto[]; total: number }> {
  const customer = isUuid(customerId) ? await selectOne(`SELECT 1 AS found FROM customers WHERE id = :customerId`, { customerId }) : null;
  if (!customer) throw apiError(404, DEBTOR_ERRORS.customerNotFound);
  const [rows, count] = await Promise.all([
    selectRows<LinkRow>(`${SELECT_LINK} WHERE l.customer_id = :customerId ORDER BY l.created_at DESC, l.id DESC LIMIT :limit OFFSET :offset`, {
      customerId,
      limit: page.limit,
      offset: page.offset,
    }),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM debtor_links WHERE customer_id = :customerId`, { customerId }),
  ]);
  return { links: rows.map(toDto), total: count!.total };
}

async function lockLink(id: string, transaction: Transaction) {
  const row = isUuid(id)
    ? await selectOne<RowOf<typeof DebtorLink, 'id' | 'client_id' | 'customer_id' | 'notice_id' | 'spent_at' | 'revoked_at'> & { expired: boolean }>(
        `SELECT id, client_id, customer_id, notice_id, spent_at, revoked_at, expires_at <= now() AS expired FROM debtor_links WHERE id = :id FOR UPDATE`,
        { id },
        { transaction },
      )
    : null;
  if (!row) throw apiError(404, DEBTOR_ERRORS.linkNotFound);
  return row;
}

/**
 * POST /api/debtor-links/{id}/resend (manager): a new link for the same pair
 * and notice, mailed to the debtor; the old one is revoked if it still worked.
 * 409 when no mail can go (nothing changes). Returns the new link.
 */
export async function resendDebtorLink({ actor, id, ip }: { actor: Actor; id: string; ip?: string | null }): Promise<DebtorLinkDto> {
  assertCan(actor, 'manage:debtor_links');
  return inTransaction(async (transaction) => {
    const old = await lockLink(id, transaction);
    const wasOpen = statusOf(old) === 'open';
    const link = await createAndMailLink({ noticeId: old.notice_id, invoiceId: null, actorId: actor.id, replacesId: old.id }, transaction);
    if (!link) throw await noMailRefusal(old.customer_id, transaction);
    if (wasOpen) await execute(`UPDATE debtor_links SET revoked_at = now(), revoked_by = :actorId WHERE id = :id`, { id: old.id, actorId: actor.id }, { transaction });
    await logActivity(
      {
        action: 'debtor_link_resent',
        userId: actor.id,
        entityType: 'customer',
        entityId: old.customer_id,
        ipAddress: ip,
        details: { linkId: link.id, replacesId: old.id, oldRevoked: wasOpen, clientId: old.client_id, expiresAt: iso(link.expiresAt), emailLogId: link.emailLogId },
      },
      transaction,
    );
    return readDebtorLink(link.id, transaction);
  });
}

/** POST /api/debtor-links/{id}/revoke (manager): the link stops working. 409 for a link already spent, revoked or expired. */
export async function revokeDebtorLink({ actor, id, ip }: { actor: Actor; id: string; ip?: string | null }): Promise<DebtorLinkDto> {
  assertCan(actor, 'manage:debtor_links');
  return inTransaction(async (transaction) => {
    const link = await lockLink(id, transaction);
    const status = statusOf(link);
    if (status !== 'open') throw apiError(409, DEBTOR_ERRORS.linkClosed, { params: { status } });
    await execute(`UPDATE debtor_links SET revoked_at = now(), revoked_by = :actorId WHERE id = :id`, { id: link.id, actorId: actor.id }, { transaction });
    await logActivity(
      {
        action: 'debtor_link_revoked',
        userId: actor.id,
        entityType: 'customer',
        entityId: link.customer_id,
        ipAddress: ip,
        details: { linkId: link.id, clientId: link.client_id },
      },
      transaction,
    );
    return readDebtorLink(link.id, transaction);
  });
}

// ---------------------------------------------------------------------------
// The debtor's side: what the page shows and its one submit

export interface OfferedInvoice {
  id: string;
  number: string;
  issueDate: string;
  dueDate: string;
  amount: number;
  currency: string;
  paymentReference: string | null;
}

export type DebtorLinkState =
  | {
      state: 'open';
      clientName: string;
      debtorName: string;
      factorName: string;
      factorIban: string;
      expiresAt: string;
      invoices: OfferedInvoice[];
      /** All invoices waiting for an answer; the page shows the first DEBTOR_PAGE_INVOICES. */
      waiting: number;
    }
  | { state: 'spent'; spentAt: string; clientName: string; debtorName: string }
  | { state: 'revoked' }
  | { state: 'expired' }
  | { state: 'unknown' };

type TokenRow = RowOf<typeof DebtorLink, 'id' | 'client_id' | 'customer_id' | 'notice_id' | 'expires_at' | 'spent_at' | 'revoked_at'> & {
  expired: boolean;
  client_name: RowOf<typeof Client>['company_name'];
  debtor_name: RowOf<typeof Customer>['company_name'];
};

async function findLink(token: string, options: { transaction?: Transaction } = {}): Promise<TokenRow | null> {
  if (!TOKEN.test(token)) return null;
  return selectOne<TokenRow>(
    `SELECT l.id, l.client_id, l.customer_id, l.notice_id, l.expires_at, l.spent_at, l.revoked_at, l.expires_at <= now() AS expired,
            c.company_name AS client_name, d.company_name AS debtor_name
       FROM debtor_links l JOIN clients c ON c.id = l.client_id JOIN customers d ON d.id = l.customer_id
      WHERE l.token_hash = :hash ${options.transaction ? 'FOR UPDATE OF l' : ''}`,
    { hash: hashToken(token) },
    options,
  );
}

type OfferedRow = RowOf<typeof Invoice, 'id' | 'invoice_number' | 'issue_date' | 'due_date' | 'amount' | 'currency' | 'payment_reference'>;

/** The pair's invoices waiting for the debtor's answer, oldest due first: one page of them and how many there are. */
async function offeredInvoices(link: Pick<TokenRow, 'client_id' | 'customer_id'>, transaction?: Transaction): Promise<{ invoices: OfferedInvoice[]; waiting: number }> {
  const where = `i.client_id = :clientId AND i.customer_id = :customerId AND ${OFFERED_SQL}`;
  const replacements = { clientId: link.client_id, customerId: link.customer_id, limit: DEBTOR_PAGE_INVOICES };
  const { rows, total } = await selectPage<OfferedRow>(
    `SELECT i.id, i.invoice_number, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date, to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.amount, i.currency, i.payment_reference
       FROM invoices i WHERE ${where} ORDER BY i.due_date, i.invoice_number, i.id LIMIT :limit`,
    `SELECT count(*)::int AS total FROM invoices i WHERE ${where}`,
    replacements,
    { transaction },
  );
  return {
    invoices: rows.map((row) => ({
      id: row.id,
      number: row.invoice_number,
      issueDate: row.issue_date,
      dueDate: row.due_date,
      amount: money(row.amount),
      currency: row.currency,
      paymentReference: row.payment_reference,
    })),
    waiting: total,
  };
}

/** How many invoices of the pair wait for the debtor's answer (a confirmation request needs one). */
export async function waitingInvoices(clientId: string, customerId: string, transaction: Transaction): Promise<number> {
  return (await offeredInvoices({ client_id: clientId, customer_id: customerId }, transaction)).waiting;
}

async function stateOf(row: TokenRow | null, transaction?: Transaction): Promise<DebtorLinkState> {
  if (!row) return { state: 'unknown' };
  if (row.spent_at) return { state: 'spent', spentAt: iso(row.spent_at), clientName: row.client_name, debtorName: row.debtor_name };
  if (row.revoked_at) return { state: 'revoked' };
  if (row.expired) return { state: 'expired' };
  const factor = factorAccount();
  return {
    state: 'open',
    clientName: row.client_name,
    debtorName: row.debtor_name,
    factorName: factor.name,
    factorIban: factor.iban,
    expiresAt: iso(row.expires_at),
    ...(await offeredInvoices(row, transaction)),
  };
}

/** What the link's page shows. */
export async function linkState(token: string): Promise<DebtorLinkState> {
  return stateOf(await findLink(token));
}

/** The page's status for a state: 404 unknown, 410 no longer usable. */
export function linkStatusCode(state: DebtorLinkState['state']): number {
  return state === 'unknown' ? 404 : state === 'open' ? 200 : 410;
}

/**
 * The notice's PDF through the link (`/debtor/{token}/notice.pdf`): while the
 * link is open or after its submit, never for a revoked, expired or unknown
 * one. The bytes must match the recorded checksum; the download is logged.
 */
export async function noticeFileByToken(token: string, ip?: string | null): Promise<{ ok: true; bytes: Buffer; fileName: string } | { ok: false; status: number }> {
  const link = await findLink(token);
  const state = link ? statusOf(link) : 'unknown';
  if (!link || (state !== 'open' && state !== 'spent')) return { ok: false, status: state === 'unknown' ? 404 : 410 };
  const document = (await selectOne<RowOf<typeof Document, 'id' | 'name' | 'storage_key' | 'checksum'>>(
    `SELECT d.id, d.name, d.storage_key, d.checksum FROM debtor_notices n JOIN documents d ON d.id = n.document_id WHERE n.id = :id`,
    { id: link.notice_id },
  ))!;
  const bytes = await getObjectStore().get(document.storage_key);
  if (sha256Hex(bytes) !== document.checksum.trim()) throw new Error(`debtor notice ${document.id} does not match its checksum`);
  await inTransaction((transaction) =>
    logActivity(
      {
        action: 'document_downloaded',
        userId: null,
        entityType: 'document',
        entityId: document.id,
        ipAddress: ip,
        details: { name: document.name, via: 'debtor_link', linkId: link.id },
      },
      transaction,
    ),
  );
  return { ok: true, bytes, fileName: 'obavijest-o-ustupanju.pdf' };
}

export type SubmitAnswersResult = { ok: true } | { ok: false; status: number; link: DebtorLinkState; errors?: DebtorFormErrors };

class LinkClosed extends Error {
  constructor(readonly status: number) {
    super('debtor link no longer open');
  }
}

/**
 * The debtor's one submit: the acknowledgement of the notice and an answer per
 * invoice it chose to answer. In one transaction, with the link row locked
 * (a second submit waits and then finds it spent): each answer with its time
 * and address; a confirmation is that answer; a dispute also opens the
 * invoice's dispute (source 'debtor', the address), sets its flag and reason,
 * and opens a high-priority task on the invoice for the staff; then the link
 * is spent. A refused submit (a missing reason, an invoice no longer open, a
 * link spent meanwhile) writes nothing.
 */
export async function submitDebtorAnswers({ token, fields, ip }: { token: string; fields: Record<string, unknown>; ip?: string | null }): Promise<SubmitAnswersResult> {
  const before = await findLink(token);
  const state = await stateOf(before);
  if (!before || state.state !== 'open') return { ok: false, status: linkStatusCode(state.state), link: state };
  const parsed = parseDebtorAnswers(
    fields,
    state.invoices.map((invoice) => invoice.id),
  );
  if (!parsed.ok) return { ok: false, status: 400, link: state, errors: parsed.errors };
  const { answers } = parsed.data;
  const address = ip ? ip.slice(0, 64) : null;

  try {
    await inTransaction(async (transaction) => {
      const link = await findLink(token, { transaction });
      if (!link || link.spent_at || link.revoked_at || link.expired) throw new LinkClosed(link ? 410 : 404);
      const ids = answers.map((answer) => answer.invoiceId).sort();
      const open =
        ids.length === 0
          ? []
          : await selectRows<RowOf<typeof Invoice, 'id' | 'invoice_number'>>(
              `SELECT i.id, i.invoice_number FROM invoices i
                WHERE i.id IN (:ids) AND i.client_id = :clientId AND i.customer_id = :customerId AND ${OFFERED_SQL}
                ORDER BY i.id FOR UPDATE`,
              { ids, clientId: link.client_id, customerId: link.customer_id },
              { transaction },
            );
      // Answered, disputed, paid or rejected since the page was shown: the whole submit is refused.
      if (open.length !== ids.length) throw new LinkClosed(409);
      const numbers = new Map(open.map((row) => [row.id, row.invoice_number]));
      const confirmed: string[] = [];
      const disputed: string[] = [];
      for (const answer of answers) {
        const number = numbers.get(answer.invoiceId)!;
        let disputeId: string | null = null;
        let taskId: string | null = null;
        if (answer.choice === 'dispute') {
          disputeId = await insertDispute({ invoiceId: answer.invoiceId, reason: answer.reason!, source: 'debtor', openedBy: null, ip: address }, transaction);
          taskId = (
            await createTask(
              {
                actor: null,
                input: {
                  title: `Dužnik osporava račun ${number}`.slice(0, 255),
                  description: `${link.debtor_name} osporava račun ${number} klijenta ${link.client_name}.\nRazlog: ${answer.reason}`.slice(0, 5000),
                  type: 'customer_contact',
                  priority: 'high',
                  entityType: 'invoice',
                  entityId: answer.invoiceId,
                },
                ip: address,
              },
              { transaction },
            )
          ).id;
          disputed.push(answer.invoiceId);
        } else confirmed.push(answer.invoiceId);
        await execute(
          `INSERT INTO debtor_answers (link_id, invoice_id, answer, dispute_id, ip) VALUES (:linkId, :invoiceId, :answer, :disputeId, :ip)`,
          { linkId: link.id, invoiceId: answer.invoiceId, answer: disputeId ? 'disputed' : 'confirmed', disputeId, ip: address },
          { transaction },
        );
        await logActivity(
          {
            action: disputeId ? 'invoice_disputed' : 'invoice_confirmed_by_debtor',
            userId: null,
            entityType: 'invoice',
            entityId: answer.invoiceId,
            ipAddress: address,
            details: { invoiceNumber: number, source: 'debtor', linkId: link.id, ...(disputeId ? { disputeId, reason: answer.reason, taskId } : {}) },
          },
          transaction,
        );
      }
      await execute(`UPDATE debtor_links SET spent_at = now(), acknowledged_at = now(), submitted_ip = :ip WHERE id = :id`, { id: link.id, ip: address }, { transaction });
      await logActivity(
        {
          action: 'debtor_link_submitted',
          userId: null,
          entityType: 'customer',
          entityId: link.customer_id,
          ipAddress: address,
          details: { linkId: link.id, clientId: link.client_id, acknowledged: true, confirmed, disputed },
        },
        transaction,
      );
    });
  } catch (error) {
    if (!(error instanceof LinkClosed)) throw error;
    const now = await linkState(token);
    return { ok: false, status: error.status, link: now, ...(error.status === 409 ? { errors: { form: [DEBTOR_ERRORS.notOffered] } } : {}) };
  }
  return { ok: true };
}

/** The clients with invoices on this debtor waiting for its answer: whom a confirmation request can be about (the customer page's form). */
export async function confirmablePairs(customerId: string): Promise<Array<{ id: string; name: string }>> {
  const rows = await selectRows<RowOf<typeof Client, 'id' | 'company_name'>>(
    `SELECT c.id, c.company_name FROM clients c
      WHERE EXISTS (SELECT 1 FROM invoices i WHERE i.client_id = c.id AND i.customer_id = :customerId AND ${OFFERED_SQL})
      ORDER BY c.company_name, c.id LIMIT 200`,
    { customerId },
  );
  return rows.map((row) => ({ id: row.id, name: row.company_name }));
}
