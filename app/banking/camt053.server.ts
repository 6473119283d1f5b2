import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectPage, selectRows } from '../db.server.ts';
import { expectedCents, recordPayment } from '../payments/payment-recording.server.ts';
import { openForMatchingSql } from '../payments/open-amount.server.ts';
import { type PaymentDto } from '../payments/payment-queries.server.ts';
import { entryAssignSchema, PAYMENT_MESSAGES } from '../payments/schemas.ts';
import { apiError, zodRefusal } from '../utils/api.server.ts';
import type { RefusalParams } from '../utils/refusals.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { isCalendarDate, parseTimestamp } from '../utils/validation.ts';
import { factorAccount } from './factor-account.server.ts';
import { isValidIban, normalizeAnyIban } from './iban.ts';
import { child, children, textAt, type XmlElement } from '../xml/reader.server.ts';
import { BANK_REFUSALS, parseBankXml } from './xml.server.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Cash application from ISO 20022 camt.053 (bank-to-customer statement,
 * version .08; other camt.053 versions share the elements read here).
 *
 * Reading: the XML is parsed safely (no DOCTYPE/entities, 5 MB). Each booked
 * credit entry (CdtDbtInd CRDT, not a reversal) becomes one item; an entry
 * that batches several transactions (several NtryDtls/TxDtls with their own
 * amounts) becomes one item per transaction. The item's reference is the
 * bank's: AcctSvcrRef, else NtryRef, else the statement id and position.
 *
 * Matching an item to an open invoice (financed or charged back, amount > paid_amount + credit notes):
 *  1. by the payment reference — the one FinFlow gave the debtor at
 *     financing ('HR00 2026-7-000042', invoices.payment_reference), which
 *     alone decides when it is there; else Croatian 'poziv na broj' models
 *     (HR00, HR01, …; 'HR00 2025-0042', 'HR01 R-2025-0042') whose number
 *     equals the invoice number ignoring punctuation, or its digits; or the
 *     invoice number written anywhere in the remittance text;
 *  2. the amount must not exceed what the invoice still expects (amount −
 *     confirmed payments − credit notes − pending payments);
 *  3. several candidates: the one expecting exactly this amount, then the
 *     one whose customer's IBAN is the payer's; still several → unmatched.
 * A match becomes a pending payment (source bank_statement, bank_entry_ref =
 * the item's reference, reference = the remittance text) for a manager to
 * confirm; everything else is kept as an unmatched entry for a person to
 * assign. Items whose reference is already known (an entry or a payment)
 * are duplicates and create nothing; the statement itself is recorded once
 * per account and Stmt/Id.
 */

export interface StatementItem {
  entryRef: string;
  amountCents: number;
  currency: string;
  bookingDate: string | null;
  debtorName: string | null;
  debtorIban: string | null;
  /** Structured references and unstructured text, as one line. */
  remittance: string;
}

export interface ParsedStatement {
  messageId: string | null;
  statementRef: string;
  accountIban: string;
  fromDate: string | null;
  toDate: string | null;
  items: StatementItem[];
  /** Debits, reversals and entries not booked: not collections. */
  skipped: number;
}

const CAMT053_NS = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.\d{2}$/;
const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;

/** 400 on the field `file`; the codes are in BANK_REFUSALS, their params name the element (`where`) and the value. */
const bad = (code: string, params: RefusalParams = {}) => apiError(400, code, { params, errors: { file: [{ code, params }] } });

/**
 * The calendar day of a date choice (Dt, or DtTm) or of a bare ISODateTime
 * element. A value that is there but names no real day or instant
 * (2026-02-30, 9999-99-99T25:00) is refused with the element named: stored,
 * it would only fail in the database.
 */
function dayOf(value: string | null, where: string): string | null {
  if (value === null) return null;
  if (isCalendarDate(value) || parseTimestamp(value) !== null) return value.slice(0, 10);
  throw bad(BANK_REFUSALS.invalidDate, { where, value: JSON.stringify(value) });
}

function day(node: XmlElement | null, where: string): string | null {
  const date = textAt(node, 'Dt');
  if (date !== null) return dayOf(date, `${where}/Dt`);
  return dayOf(textAt(node, 'DtTm'), `${where}/DtTm`);
}

function remittanceOf(nodes: Array<XmlElement | null>): string {
  const parts: string[] = [];
  for (const node of nodes) {
    const info = child(node, 'RmtInf');
    if (!info) continue;
    for (const structured of children(info, 'Strd')) {
      const ref = textAt(structured, 'CdtrRefInf/Ref');
      if (ref) parts.push(ref);
      for (const line of children(structured, 'AddtlRmtInf')) if (line.text) parts.push(line.text);
    }
    for (const line of children(info, 'Ustrd')) if (line.text) parts.push(line.text);
    if (parts.length) break;
  }
  return [...new Set(parts)].join(' ').replace(/\s+/g, ' ').trim().slice(0, 1000);
}

function amountOf(node: XmlElement | null, where: string): { cents: number; currency: string } | null {
  if (!node) return null;
  if (!AMOUNT.test(node.text)) throw bad(BANK_REFUSALS.invalidAmount, { where, value: JSON.stringify(node.text) });
  const currency = (node.attrs.Ccy ?? 'EUR').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw bad(BANK_REFUSALS.invalidCurrency, { where, value: String(JSON.stringify(node.attrs.Ccy)) });
  return { cents: toCents(node.text), currency };
}

/** camt.053 XML → the account, the statement id and its credit items. 400 with the reason for anything unreadable. */
export function parseCamt053(xml: Buffer | string): ParsedStatement {
  const doc = parseBankXml(xml);
  if (doc.name !== 'Document' || !CAMT053_NS.test(doc.ns)) throw bad(BANK_REFUSALS.notCamt053);
  const root = child(doc, 'BkToCstmrStmt');
  const statements = children(root, 'Stmt');
  if (statements.length !== 1) throw bad(BANK_REFUSALS.oneStatement);
  const stmt = statements[0];
  const statementRef = textAt(stmt, 'Id');
  if (!statementRef || statementRef.length > 35) throw bad(BANK_REFUSALS.statementIdRequired);
  const ibanText = textAt(stmt, 'Acct/Id/IBAN');
  if (!ibanText || !isValidIban(ibanText)) throw bad(BANK_REFUSALS.ibanInvalid);
  const items: StatementItem[] = [];
  let skipped = 0;
  children(stmt, 'Ntry').forEach((entry, index) => {
    const where = `Ntry[${index + 1}]`;
    const status = textAt(entry, 'Sts/Cd') ?? textAt(entry, 'Sts');
    const reversal = textAt(entry, 'RvslInd') === 'true';
    if (textAt(entry, 'CdtDbtInd') !== 'CRDT' || reversal || (status !== null && status !== 'BOOK')) {
      skipped += 1;
      return;
    }
    const amount = amountOf(child(entry, 'Amt'), where);
    if (!amount) throw bad(BANK_REFUSALS.amountRequired, { where });
    const entryRef = textAt(entry, 'AcctSvcrRef') ?? textAt(entry, 'NtryRef') ?? `${statementRef}/${index + 1}`;
    const bookingDate = day(child(entry, 'BookgDt'), `${where}/BookgDt`) ?? day(child(entry, 'ValDt'), `${where}/ValDt`);
    const details = children(entry, 'NtryDtls').flatMap((d) => children(d, 'TxDtls'));
    const party = (tx: XmlElement | null) => {
      const debtorName = textAt(tx, 'RltdPties/Dbtr/Pty/Nm') ?? textAt(tx, 'RltdPties/Dbtr/Nm');
      const debtorIban = textAt(tx, 'RltdPties/DbtrAcct/Id/IBAN');
      // ISO 20022 caps a name at 140 characters and an IBAN at 34.
      if (debtorName !== null && debtorName.length > 255) throw bad(BANK_REFUSALS.debtorNameTooLong, { where });
      if (debtorIban !== null && debtorIban.length > 34) throw bad(BANK_REFUSALS.debtorIbanTooLong, { where });
      return { debtorName, debtorIban };
    };
    if (details.length > 1) {
      details.forEach((tx, n) => {
        const own = amountOf(child(tx, 'Amt') ?? child(tx, 'AmtDtls/TxAmt/Amt'), `${where}/TxDtls[${n + 1}]`);
        if (!own) throw bad(BANK_REFUSALS.batchAmountRequired, { where: `${where}/TxDtls[${n + 1}]` });
        items.push({
          entryRef: (textAt(tx, 'Refs/AcctSvcrRef') ?? `${entryRef}/${n + 1}`).slice(0, 255),
          amountCents: own.cents,
          currency: own.currency,
          bookingDate,
          ...party(tx),
          remittance: remittanceOf([tx]),
        });
      });
    } else {
      const tx = details[0] ?? null;
      items.push({ entryRef: entryRef.slice(0, 255), amountCents: amount.cents, currency: amount.currency, bookingDate, ...party(tx), remittance: remittanceOf([tx, entry]) });
    }
  });
  for (const item of items) if (item.amountCents <= 0) throw bad(BANK_REFUSALS.entryAmountNotPositive, { entry: item.entryRef });
  const messageId = textAt(root, 'GrpHdr/MsgId');
  if (messageId !== null && messageId.length > 35) throw bad(BANK_REFUSALS.messageIdTooLong);
  return {
    messageId,
    statementRef,
    accountIban: normalizeAnyIban(ibanText),
    fromDate: dayOf(textAt(stmt, 'FrToDt/FrDtTm'), 'Stmt/FrToDt/FrDtTm'),
    toDate: dayOf(textAt(stmt, 'FrToDt/ToDtTm'), 'Stmt/FrToDt/ToDtTm'),
    items,
    skipped,
  };
}

// ---------------------------------------------------------------------------
// Matching

const alnum = (value: string) => value.toUpperCase().replace(/[^0-9A-Z]/g, '');

/** The numbers of the Croatian reference models in a remittance text ('HR00 2025-0042' → '2025-0042'). HR99 has none. */
export function paymentReferences(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\bHR(\d{2})\s*([0-9A-Za-z][0-9A-Za-z/-]{0,21})/g)) {
    if (match[1] !== '99') found.push(match[2]);
  }
  return found;
}

interface Candidate {
  id: string;
  invoice_number: string;
  amount: string;
  paid_amount: string;
  currency: string;
  customer_iban: string | null;
  by_reference: boolean;
}

type MatchResult = { invoiceId: string; invoiceNumber: string } | { reason: string };

async function matchItem(item: StatementItem, transaction: Transaction): Promise<MatchResult> {
  if (item.currency !== 'EUR') return { reason: `Currency ${item.currency} is not EUR` };
  const refs = paymentReferences(item.remittance);
  const alnumRefs = refs.map(alnum).filter((r) => r.length > 0);
  // Digits alone only when there are enough of them to mean something ('HR00 20250042' for 'R-2025-0042').
  const digitRefs = refs.map((r) => r.replace(/\D/g, '')).filter((r) => r.length >= 4);
  const candidates = await selectRows<Candidate>(
    `SELECT i.id, i.invoice_number, i.amount, i.paid_amount, i.currency, cu.iban AS customer_iban,
            coalesce(i.payment_reference IN (:fullRefs), false) AS by_reference
       FROM invoices i JOIN customers cu ON cu.id = i.customer_id
      WHERE ${openForMatchingSql('i')}
        AND (i.payment_reference IN (:fullRefs)
             OR regexp_replace(upper(i.invoice_number), '[^0-9A-Z]', '', 'g') IN (:alnumRefs)
             OR regexp_replace(i.invoice_number, '[^0-9]', '', 'g') IN (:digitRefs)
             OR (length(i.invoice_number) >= 3 AND strpos(upper(:text), upper(i.invoice_number)) > 0))
      ORDER BY i.due_date, i.id
      LIMIT 50`,
    {
      fullRefs: refs.length ? refs.map((ref) => `HR00 ${ref}`) : [''],
      alnumRefs: alnumRefs.length ? alnumRefs : [''],
      digitRefs: digitRefs.length ? digitRefs : [''],
      text: item.remittance,
    },
    { transaction },
  );
  if (candidates.length === 0) return { reason: item.remittance ? 'No open invoice matches the payment reference' : 'No payment reference' };
  // The reference the factor gave the debtor names one invoice; a number that merely looks alike does not compete with it.
  const byReference = candidates.filter((candidate) => candidate.by_reference);
  if (byReference.length > 0) candidates.splice(0, candidates.length, ...byReference);
  const open: Array<Candidate & { expected: number }> = [];
  for (const candidate of candidates) {
    const expected = await expectedCents(candidate, transaction);
    if (item.amountCents <= expected) open.push({ ...candidate, expected });
  }
  if (open.length === 0) {
    return { reason: `Amount is above the open amount of ${candidates.map((c) => c.invoice_number).join(', ')}` };
  }
  let chosen = open;
  if (chosen.length > 1) {
    const exact = chosen.filter((c) => c.expected === item.amountCents);
    if (exact.length > 0) chosen = exact;
  }
  if (chosen.length > 1 && item.debtorIban) {
    const payer = normalizeAnyIban(item.debtorIban);
    const same = chosen.filter((c) => c.customer_iban === payer);
    if (same.length > 0) chosen = same;
  }
  if (chosen.length > 1) return { reason: `Ambiguous: matches ${chosen.map((c) => c.invoice_number).join(', ')}` };
  return { invoiceId: chosen[0].id, invoiceNumber: chosen[0].invoice_number };
}

// ---------------------------------------------------------------------------
// Import

export interface ImportResult {
  statementId: string;
  statementRef: string;
  matched: number;
  unmatched: number;
  duplicates: number;
  skipped: number;
  alreadyImported: boolean;
}

/** POST /api/bank-statements: 400 unreadable, 403, 409 a statement of another account than the factor's. */
export async function importBankStatement({
  actor,
  xml,
  fileName,
  ip,
}: {
  actor: Actor;
  xml: Buffer | string;
  fileName?: string | null;
  ip?: string | null;
}): Promise<ImportResult> {
  assertCan(actor, 'create:payment');
  const statement = parseCamt053(xml);
  const account = factorAccount();
  if (statement.accountIban !== account.iban) {
    throw apiError(409, BANK_REFUSALS.wrongAccount, { params: { iban: statement.accountIban, factorIban: account.iban } });
  }
  try {
    return await inTransaction(async (transaction) => {
      const inserted = await execute<{ id: string }>(
        `INSERT INTO bank_statements (statement_ref, account_iban, message_id, file_name, from_date, to_date, entry_count, imported_by)
         VALUES (:ref, :iban, :messageId, :fileName, :fromDate, :toDate, :count, :actorId)
         ON CONFLICT (account_iban, statement_ref) DO NOTHING RETURNING id`,
        {
          ref: statement.statementRef,
          iban: statement.accountIban,
          messageId: statement.messageId?.slice(0, 35) ?? null,
          fileName: fileName?.slice(0, 255) || null,
          fromDate: statement.fromDate,
          toDate: statement.toDate,
          count: statement.items.length,
          actorId: actor.id,
        },
        { transaction },
      );
      const alreadyImported = inserted.rows.length === 0;
      const statementId =
        inserted.rows[0]?.id ??
        (await selectOne<{ id: string }>(
          'SELECT id FROM bank_statements WHERE account_iban = :iban AND statement_ref = :ref FOR UPDATE',
          { iban: statement.accountIban, ref: statement.statementRef },
          { transaction },
        ))!.id;
      const result: ImportResult = { statementId, statementRef: statement.statementRef, matched: 0, unmatched: 0, duplicates: 0, skipped: statement.skipped, alreadyImported };
      for (const item of statement.items) {
        const known = await selectOne(
          `SELECT 1 AS known WHERE EXISTS (SELECT 1 FROM bank_statement_entries WHERE entry_ref = :ref)
              OR EXISTS (SELECT 1 FROM payments WHERE bank_entry_ref = :ref)`,
          { ref: item.entryRef },
          { transaction },
        );
        if (known) {
          result.duplicates += 1;
          continue;
        }
        const match = await matchItem(item, transaction);
        let paymentId: string | null = null;
        if ('invoiceId' in match) {
          const payment = await recordPayment(
            {
              actor,
              input: {
                invoiceId: match.invoiceId,
                amount: centsToDecimalString(item.amountCents),
                paymentMethod: 'bank_transfer',
                reference: item.remittance.slice(0, 255) || undefined,
                notes: [`Izvod ${statement.statementRef}`, item.debtorName, item.bookingDate].filter(Boolean).join(', '),
              },
              ip,
            },
            { transaction, bank: { entryRef: item.entryRef } },
          );
          paymentId = payment.id;
          result.matched += 1;
        } else {
          result.unmatched += 1;
        }
        await execute(
          `INSERT INTO bank_statement_entries (statement_id, entry_ref, amount, currency, booking_date, debtor_name, debtor_iban, remittance, status, unmatched_reason, payment_id)
           VALUES (:statementId, :entryRef, :amount, :currency, :bookingDate, :debtorName, :debtorIban, :remittance, :status, :reason, :paymentId)`,
          {
            statementId,
            entryRef: item.entryRef,
            amount: centsToDecimalString(item.amountCents),
            currency: item.currency,
            bookingDate: item.bookingDate,
            debtorName: item.debtorName?.slice(0, 255) ?? null,
            debtorIban: item.debtorIban?.slice(0, 34) ?? null,
            remittance: item.remittance || null,
            status: paymentId ? 'matched' : 'unmatched',
            reason: 'reason' in match ? match.reason.slice(0, 500) : null,
            paymentId,
          },
          { transaction },
        );
      }
      await execute(
        `UPDATE bank_statements SET matched_count = matched_count + :matched, unmatched_count = unmatched_count + :unmatched WHERE id = :id`,
        { id: statementId, matched: result.matched, unmatched: result.unmatched },
        { transaction },
      );
      await logActivity(
        {
          action: 'bank_statement_imported',
          userId: actor.id,
          entityType: 'bank_statement',
          entityId: statementId,
          ipAddress: ip,
          details: {
            statementRef: statement.statementRef,
            accountIban: statement.accountIban,
            fileName: fileName ?? null,
            matched: result.matched,
            unmatched: result.unmatched,
            duplicates: result.duplicates,
            skipped: result.skipped,
            alreadyImported,
          },
        },
        transaction,
      );
      return result;
    });
  } catch (error) {
    // Two uploads of the same file at once: the second waits on the unique keys, then fails; asking again reports duplicates.
    if (isUniqueViolation(error)) throw apiError(409, BANK_REFUSALS.importRunning);
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Unmatched entries

export interface BankEntryDto {
  id: string;
  statementRef: string;
  entryRef: string;
  amount: number;
  currency: string;
  bookingDate: string | null;
  debtorName: string | null;
  debtorIban: string | null;
  remittance: string | null;
  status: string;
  reason: string | null;
  createdAt: string;
}

interface EntryRow {
  id: string;
  statement_ref: string;
  entry_ref: string;
  amount: string;
  currency: string;
  booking_date: string | null;
  debtor_name: string | null;
  debtor_iban: string | null;
  remittance: string | null;
  status: string;
  unmatched_reason: string | null;
  created_at: Date;
}

const SELECT_ENTRY = `
  SELECT e.id, s.statement_ref, e.entry_ref, e.amount, e.currency, to_char(e.booking_date, 'YYYY-MM-DD') AS booking_date,
         e.debtor_name, e.debtor_iban, e.remittance, e.status, e.unmatched_reason, e.created_at
    FROM bank_statement_entries e JOIN bank_statements s ON s.id = e.statement_id`;

function toEntryDto(row: EntryRow): BankEntryDto {
  return {
    id: row.id,
    statementRef: row.statement_ref,
    entryRef: row.entry_ref,
    amount: centsToNumber(toCents(row.amount)),
    currency: row.currency,
    bookingDate: row.booking_date,
    debtorName: row.debtor_name,
    debtorIban: row.debtor_iban,
    remittance: row.remittance,
    status: row.status,
    reason: row.unmatched_reason,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** GET /api/bank-statements/unmatched: entries waiting for a person, newest first. */
export async function listUnmatchedEntries(options: { limit?: number; offset?: number } = {}): Promise<{ items: BankEntryDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const { rows, total } = await selectPage<EntryRow>(
    `${SELECT_ENTRY} WHERE e.status = 'unmatched' ORDER BY e.created_at DESC, e.id DESC LIMIT :limit OFFSET :offset`,
    `SELECT count(*)::int AS total FROM bank_statement_entries WHERE status = 'unmatched'`,
    { limit, offset },
  );
  return { items: rows.map(toEntryDto), total };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /api/bank-statements/unmatched/{id}/assign {invoiceId}: a person puts
 * an unmatched entry on an invoice; it becomes a pending payment with the
 * entry's reference, under the usual rules (payable, not above the open
 * amount). 404 unknown entry, 409 already assigned.
 */
export async function assignEntry({ actor, id, input, ip }: { actor: Actor; id: string; input: unknown; ip?: string | null }): Promise<PaymentDto> {
  assertCan(actor, 'create:payment');
  const parsed = entryAssignSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  return inTransaction(async (transaction) => {
    const entry = UUID.test(id) ? await selectOne<EntryRow>(`${SELECT_ENTRY} WHERE e.id = :id FOR UPDATE OF e`, { id }, { transaction }) : null;
    if (!entry) throw apiError(404, PAYMENT_MESSAGES.entryNotFound);
    if (entry.status !== 'unmatched') throw apiError(409, PAYMENT_MESSAGES.entryNotUnmatched);
    const payment = await recordPayment(
      {
        actor,
        input: {
          invoiceId: parsed.data.invoiceId,
          amount: entry.amount,
          paymentMethod: 'bank_transfer',
          reference: entry.remittance?.slice(0, 255) || undefined,
          notes: [`Izvod ${entry.statement_ref}`, entry.debtor_name, entry.booking_date].filter(Boolean).join(', '),
        },
        ip,
      },
      { transaction, bank: { entryRef: entry.entry_ref } },
    );
    await execute(
      `UPDATE bank_statement_entries SET status = 'assigned', payment_id = :paymentId, assigned_by = :actorId, assigned_at = now() WHERE id = :id`,
      { id: entry.id, paymentId: payment.id, actorId: actor.id },
      { transaction },
    );
    await logActivity(
      {
        action: 'bank_entry_assigned',
        userId: actor.id,
        entityType: 'bank_statement_entry',
        entityId: entry.id,
        ipAddress: ip,
        details: {
          entryRef: entry.entry_ref,
          statementRef: entry.statement_ref,
          amount: centsToNumber(toCents(entry.amount)),
          invoiceId: parsed.data.invoiceId,
          invoiceNumber: payment.invoiceNumber,
          paymentId: payment.id,
        },
      },
      transaction,
    );
    return payment;
  });
}
