import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { invoiceFee } from '../../../app/agreements/fees.ts';
import { feeTermsOf, type AgreementRow } from '../../../app/agreements/in-force.server.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../../../app/utils/money.ts';
import { DAY, HOUR, type Clock, type Row, date, insertRows, json, updateRows } from './plumbing.ts';
import type { StaffSet } from './staff.ts';

/**
 * Recourse and write-off in the demo book (docs/collections.md#recourse-and-write-off,
 * docs/money.md#recourse-and-write-off), written after the rest from what the
 * book holds, as app/recourse/ writes them:
 *  - a manager charged back a financed recourse invoice before its due date
 *    (its debtor announced it would not pay on time), and the debtor paid
 *    part of it since, credited to the client. It is the largest invoice on
 *    the discount model whose started 30-day periods to the chargeback equal
 *    those to its due date, so the fee settled on the actual days is the fee
 *    invoiced and no completing document is due (the function checks it);
 *  - the non-recourse financed invoice longest past due was written off: a
 *    manager asked, the admin approved, the loss booked;
 *  - a write-off of the next one waits for the admin.
 * Chosen by rule and dated by the clock, drawn from no PRNG, so the rest of
 * the book does not move. Returns the rows it wrote, for the log line.
 */
export async function seedRecourse(sequelize: Sequelize, transaction: Transaction, clock: Clock, staff: StaffSet): Promise<string[]> {
  const select = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements, transaction });
  const [manager, otherManager] = staff.deciders.filter((user) => user.role === 'manager');
  const admin = staff.deciders.find((user) => user.role === 'admin');
  if (!manager || !otherManager || !admin) throw new Error('the demo book needs two managers and an admin for its chargeback and write-offs');
  const at = (daysAgo: number, hour: number) => clock.past(clock.midnight - daysAgo * DAY + hour * HOUR);
  /** The Croatian day of a moment, as the ledger books it. */
  const bookedOn = (ms: number) => `CAST((CAST('${date(ms).toISOString()}' AS timestamptz) AT TIME ZONE 'Europe/Zagreb') AS date)`;
  const ledger: Row[] = [];
  const activity: Row[] = [];
  const log = (action: string, userId: string, entityId: string, when: number, details: Record<string, unknown>) =>
    // No ids in the details: the demo book is the same from run to run but for its UUIDs (db/seed/demo.test.ts compares two).
    activity.push({ action, entity_type: 'invoice', entity_id: entityId, user_id: userId, details: json(details), created_at: date(when) });

  type Candidate = {
    id: string;
    invoice_number: string;
    client_id: string;
    customer_id: string;
    client_name: string;
    amount: string;
    payment_reference: string;
    financed_on: string;
    recourse_days: number | null;
    balance: string;
    outstanding: string;
    fees: string;
    documentation_fee: string;
  } & Pick<AgreementRow, 'fee_model' | 'fee_rate' | 'minimum_fee' | 'admin_fee'>;
  const candidates = (where: string, order: string, limit: number, replacements: Record<string, unknown>) =>
    select<Candidate>(
      `SELECT * FROM (
         SELECT i.id, i.invoice_number, i.client_id, i.customer_id, c.company_name AS client_name, i.amount, i.payment_reference, i.due_date,
                i.documentation_fee, a.fee_model, a.fee_rate, a.minimum_fee, a.admin_fee, a.recourse, a.recourse_days,
                (SELECT to_char(min(l.booked_on), 'YYYY-MM-DD') FROM client_ledger l WHERE l.invoice_id = i.id AND l.kind = 'advance') AS financed_on,
                (SELECT coalesce(sum(l.amount), 0) FROM client_ledger l WHERE l.invoice_id = i.id) AS balance,
                (SELECT greatest(0, coalesce(sum(l.amount), 0)) FROM client_ledger l WHERE l.invoice_id = i.id AND l.kind IN ('advance', 'collection')) AS outstanding,
                (SELECT coalesce(sum(l.amount), 0) FROM client_ledger l WHERE l.invoice_id = i.id AND l.kind = 'fee') AS fees
           FROM invoices i JOIN agreements a ON a.id = i.agreement_id JOIN clients c ON c.id = i.client_id
          WHERE i.status = 'financed' AND i.paid_amount = 0 AND i.pending_amount = 0 AND i.credited_amount = 0 AND NOT i.disputed) f
        WHERE ${where} ORDER BY ${order} LIMIT ${limit}`,
      replacements,
    );
  /** Moves `cents` of outstanding advance off the client's used credit and the debtor's exposure, as the ledger writer does. */
  const release = async (invoice: Candidate, cents: number, when: number) => {
    for (const [table, id] of [
      ['clients', invoice.client_id],
      ['customers', invoice.customer_id],
    ] as const) {
      const [row] = await select<{ used_credit: string }>(`SELECT used_credit FROM ${table} WHERE id = :id`, { id });
      await updateRows(sequelize, transaction, table, [{ id, used_credit: centsToDecimalString(toCents(row.used_credit) - cents), updated_at: date(when) }]);
    }
  };
  // As postLedgerEntries: a zero amount is not written.
  const entry = (invoice: Candidate, kind: string, cents: number, description: string, by: string, when: number, paymentId: string | null = null) =>
    cents !== 0 &&
    ledger.push({
      client_id: invoice.client_id,
      kind,
      amount: centsToDecimalString(cents),
      invoice_id: invoice.id,
      payment_id: paymentId,
      description,
      created_by: by,
      created_at: date(when),
      when,
    });

  // The chargeback, six days ago, and the debtor's part-payment two days ago.
  const chargedAt = at(6, 10);
  const chargedOn = clock.day(chargedAt);
  const [charged] = await candidates(
    `f.recourse AND f.fee_model = 'discount_30' AND f.due_date > CAST(:chargedOn AS date)
     AND ceil((CAST(:chargedOn AS date) - CAST(f.financed_on AS date)) / 30.0) = ceil((f.due_date - CAST(f.financed_on AS date)) / 30.0)`,
    'f.amount DESC, f.invoice_number',
    1,
    { chargedOn },
  );
  if (!charged) throw new Error('the demo book has no recourse invoice to charge back');
  const invoiced = toCents(charged.fees);
  const fee = invoiceFee(feeTermsOf(charged), {
    amountCents: toCents(charged.amount),
    advanceCents: toCents(charged.outstanding),
    financedOn: charged.financed_on,
    until: chargedOn,
  });
  if (fee.totalCents + toCents(charged.documentation_fee) !== invoiced) throw new Error(`the fee of ${charged.invoice_number} would change at its chargeback`);
  const advance = toCents(charged.outstanding);
  const owed = toCents(charged.balance);
  const reason = 'Dužnik je najavio kašnjenje plaćanja od najmanje 90 dana; po dogovoru s klijentom regres prije dospijeća.';
  entry(charged, 'advance', -advance, `Regres ${charged.invoice_number}: predujam preuzima klijent`, manager.id, chargedAt);
  entry(charged, 'chargeback', advance, `Regres ${charged.invoice_number}`, manager.id, chargedAt);
  await release(charged, advance, chargedAt);
  const owedText = centsToDecimalString(owed).replace('.', ',');
  const tasks: Row[] = [
    {
      id: randomUUID(),
      title: `Regres: faktura ${charged.invoice_number}`,
      description: `Faktura ${charged.invoice_number} klijenta ${charged.client_name} regresirana je prije isteka roka regresa: ${reason}. Klijent po njoj duguje ${owedText} EUR.`,
      type: 'manual_review',
      priority: 'high',
      status: 'pending',
      entity_type: 'invoice',
      entity_id: charged.id,
      created_by: manager.id,
      created_at: date(chargedAt),
      updated_at: date(chargedAt),
    },
  ];
  log('invoice_charged_back', manager.id, charged.id, chargedAt, {
    invoiceNumber: charged.invoice_number,
    fromStatus: 'financed',
    toStatus: 'charged_back',
    automatic: false,
    reason,
    recourseDays: charged.recourse_days,
    advanceChargedBack: centsToNumber(advance),
    feeInvoiced: centsToNumber(invoiced),
    finalFee: centsToNumber(invoiced),
    feeDays: fee.days,
    feeDocument: null,
    owedByClient: centsToNumber(owed),
  });
  // The debtor paid 30 % of the invoice, in whole euros, to the factor: credited to the client, the invoice stays charged back.
  const paidAt = at(2, 9);
  const paidCents = Math.round(toCents(charged.amount) * 0.003) * 100;
  const paymentId = randomUUID();
  const payments: Row[] = [
    {
      id: paymentId,
      invoice_id: charged.id,
      amount: centsToDecimalString(paidCents),
      currency: 'EUR',
      payment_method: 'bank_transfer',
      status: 'confirmed',
      reference: charged.payment_reference,
      notes: 'Djelomična uplata dužnika nakon regresa: odobrava se klijentu.',
      source: 'manual',
      recorded_by: manager.id,
      processed_by: manager.id,
      processed_at: date(paidAt + HOUR),
      created_at: date(paidAt),
      updated_at: date(paidAt + HOUR),
    },
  ];
  entry(charged, 'collection', -paidCents, `${charged.invoice_number} · ${charged.payment_reference}`, manager.id, paidAt + HOUR, paymentId);
  await updateRows(sequelize, transaction, 'invoices', [
    {
      id: charged.id,
      status: 'charged_back',
      charged_back_at: date(chargedAt),
      charged_back_by: manager.id,
      charge_back_reason: reason,
      paid_amount: centsToDecimalString(paidCents),
      updated_at: date(paidAt + HOUR),
    },
  ]);

  // The write-offs: the non-recourse invoices longest past due.
  const [writtenOff, waiting] = await candidates('NOT f.recourse AND f.due_date < CAST(:today AS date)', 'f.due_date, f.invoice_number', 2, { today: clock.dayAgo(0) });
  if (!writtenOff || !waiting) throw new Error('the demo book has too few non-recourse invoices past due for its write-offs');
  const requests: Row[] = [];
  const request = (invoice: Candidate, requestReason: string, by: string, when: number) => {
    log('write_off_requested', by, invoice.id, when, { invoiceNumber: invoice.invoice_number, reason: requestReason, openBalance: centsToNumber(toCents(invoice.balance)) });
    const row: Row = {
      id: randomUUID(),
      invoice_id: invoice.id,
      reason: requestReason,
      status: 'pending',
      requested_by: by,
      requested_at: date(when),
      created_at: date(when),
      updated_at: date(when),
    };
    requests.push(row);
    return row;
  };
  const writeOffReason = 'Dužnik je u likvidaciji; potraživanje je prijavljeno likvidatoru, naplata se ne očekuje.';
  const approved = request(writtenOff, writeOffReason, manager.id, at(5, 9));
  const decidedAt = at(4, 11);
  const outstanding = toCents(writtenOff.outstanding);
  const loss = Math.max(0, toCents(writtenOff.balance));
  entry(writtenOff, 'advance', -outstanding, `Otpis ${writtenOff.invoice_number}: predujam`, admin.id, decidedAt);
  entry(writtenOff, 'write_off', -(loss - outstanding), `Otpis ${writtenOff.invoice_number}: naknade`, admin.id, decidedAt);
  await release(writtenOff, outstanding, decidedAt);
  await updateRows(sequelize, transaction, 'invoices', [
    { id: writtenOff.id, status: 'written_off', written_off_at: date(decidedAt), written_off_by: admin.id, updated_at: date(decidedAt) },
  ]);
  Object.assign(approved, { status: 'approved', decided_by: admin.id, decided_at: date(decidedAt), loss_amount: centsToDecimalString(loss), updated_at: date(decidedAt) });
  log('invoice_written_off', admin.id, writtenOff.id, decidedAt, {
    invoiceNumber: writtenOff.invoice_number,
    fromStatus: 'financed',
    toStatus: 'written_off',
    reason: writeOffReason,
    loss: centsToNumber(loss),
    advanceWrittenOff: centsToNumber(outstanding),
    feesWrittenOff: centsToNumber(loss - outstanding),
    clientCreditLeft: 0,
  });
  request(waiting, 'Dužnik ne odgovara na opomene ni na pozive; predlažem otpis.', otherManager.id, at(1, 14));

  await insertRows(sequelize, transaction, 'tasks', tasks);
  await insertRows(sequelize, transaction, 'payments', payments);
  await insertRows(sequelize, transaction, 'write_off_requests', requests);
  // In the order they happened, each on the Croatian day of its moment; amounts were sums of the ledger, so used credit stays them.
  ledger.sort((left, right) => Number(left.when) - Number(right.when));
  for (const { when, ...row } of ledger) {
    await sequelize.query(
      `INSERT INTO client_ledger (client_id, booked_on, kind, amount, invoice_id, payment_id, description, created_by, created_at)
       VALUES (:client_id, ${bookedOn(Number(when))}, :kind, CAST(:amount AS numeric), :invoice_id, :payment_id, :description, :created_by, :created_at)`,
      { replacements: row, transaction },
    );
  }
  await insertRows(sequelize, transaction, 'activity_logs', activity);
  return [`${ledger.length} client_ledger (recourse)`, `${requests.length} write_off_requests`, '1 charged_back and 1 written_off invoices'];
}
