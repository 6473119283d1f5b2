import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { issueFeeEInvoices } from '../../app/einvoices/outgoing.server.ts';
import { getObjectStore, type ObjectStore } from '../../app/storage/object-store.server.ts';
import { ensureReferenceData, insertMissingReferenceData } from '../reference-data.ts';
import { Clock, DAY, HOUR, Random, date, insertRows, updateRows } from './demo/plumbing.ts';
import { insertStaff } from './demo/staff.ts';
import { buildBook } from './demo/book.ts';
import { seedLedger } from './demo/ledger.ts';
import { seedDilution } from './demo/dilution.ts';
import { seedDebtorSide } from './demo/debtors.ts';
import { seedDunning } from './demo/dunning.ts';
import { seedRecourse } from './demo/recourse.ts';

/**
 * The demo book: a Croatian factoring company's back office after about
 * eighteen months of business, so every screen has something true to show.
 *
 * Deterministic: one seeded PRNG draws every value, in a fixed order, and all
 * dates are whole-day offsets from today (UTC), so every run produces the same
 * book shifted to look current. Only the UUIDs (and the database's own
 * defaults, such as email tracking tokens) differ between runs.
 *
 * Consistent: the figures agree with each other the way the domain rules
 * would have left them (docs/money.md, docs/lifecycle.md): advances and fees from the agreement,
 * used credit = open advances, paid invoices covered by confirmed payments,
 * risk categories from scores, a task behind every waiting workflow step.
 *
 * Written with plain multi-row INSERTs (not the models) in one transaction.
 * It builds on the reference data every install has (db/reference-data.ts):
 * its workflow instances run the reference definitions, its mail goes out
 * with the reference templates (plus two manual ones and a retired one), and
 * it gives the reference integrations their history.
 *
 * This file inserts the book; db/seed/demo/ builds it: plumbing.ts (the PRNG,
 * the clock, the INSERTs), croatia.ts (names, places, banks, rates),
 * context.ts (what every part draws on), book.ts (the parts in the order they
 * draw), then one file per area (staff, parties, invoices, credit, risk,
 * documents, tasks, workflows, email, integrations, activity), and ledger.ts
 * the clients' accounts after the fee e-invoices. Moving a call
 * changes the order of the draws, and so the book: db/seed/demo-snapshot.test.ts
 * compares it row for row.
 */

export interface SeedDemoOptions {
  log?: (line: string) => void;
  /** The day the book should look current on; defaults to now. */
  now?: Date;
  /** Where the documents' PDF files go; defaults to the store in DATA_DIR. */
  objectStore?: ObjectStore;
}

// Any fixed numbers: the PRNG seed, and an advisory lock so two starting processes cannot both seed.
const PRNG_SEED = 20_261_122;
const SEED_LOCK = 7_320_113;
/** When the book's FinFlow was installed: before anything in it happened. */
const INSTALLED_DAYS_AGO = 800;

export async function seedDemo(sequelize: Sequelize, options: SeedDemoOptions = {}): Promise<{ seeded: boolean }> {
  const log = options.log ?? (() => {});
  const store = options.objectStore ?? getObjectStore();
  const started = Date.now();

  const counts = await sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${SEED_LOCK})`, { transaction });
    const [[existing]] = (await sequelize.query('SELECT EXISTS (SELECT 1 FROM clients) AS present', {
      transaction,
    })) as [Array<{ present: boolean }>, unknown];
    if (existing.present) return undefined;

    const clock = new Clock(options.now ?? new Date());
    // Already installed by db/prepare.ts on a start; here for a database that was only migrated (the tests).
    await ensureReferenceData(sequelize, { transaction, at: date(clock.midnight - INSTALLED_DAYS_AGO * DAY + 8 * HOUR) });
    // The book is empty, so it is still install time: a kind staff removed since is put back for the book to use.
    const { ids: reference } = await insertMissingReferenceData(sequelize, transaction);
    const staff = await insertStaff(sequelize, transaction, clock);
    const book = buildBook(new Random(PRNG_SEED), clock, staff, reference);

    // Files first: a committed document row must never point at a missing file.
    for (const file of book.files) {
      const stored = await store.put(file.bytes, { contentType: 'application/pdf' });
      Object.assign(file.row, { storage_key: stored.key, checksum: stored.checksum, size: stored.size });
    }

    for (const [table, rows] of book.tables) await insertRows(sequelize, transaction, table, rows);
    for (const [table, rows] of book.updates) await updateRows(sequelize, transaction, table, rows);
    const einvoices = await issueDemoFeeEInvoices(sequelize, transaction);
    // After the fee e-invoices: the fee entries take their numbers and VAT.
    const ledger = await seedLedger(sequelize, transaction, clock, staff);
    const dilution = await seedDilution(sequelize, transaction, clock, staff);
    // The notices of assignment and the debtors' answers, from the book as written (db/seed/demo/debtors.ts).
    const debtorSide = await seedDebtorSide(sequelize, transaction, clock, staff, store);
    // After the credit notes and the debtors' disputes, from no PRNG: reminders with their slips on the first overdue
    // invoices still open and undisputed, one invoice on hold.
    const dunning = await seedDunning(sequelize, transaction, clock, store, staff);
    // Recourse and write-off, last, from the book as written (db/seed/demo/recourse.ts): a chargeback, a write-off, a pending request.
    const recourse = await seedRecourse(sequelize, transaction, clock, staff);
    // Only the demo users this run created; an existing account keeps its own history.
    for (const [id, at] of book.lastLogins) {
      if (staff.inserted.has(id)) {
        await sequelize.query('UPDATE users SET last_login_at = $1 WHERE id = $2', {
          bind: [date(at), id],
          transaction,
        });
      }
    }
    return [...book.tables.map(([table, rows]) => `${rows.length} ${table}`), `${einvoices} outgoing_einvoices`, ...ledger, ...dilution, ...debtorSide, ...dunning, ...recourse];
  });

  if (!counts) {
    log('skipped: the database already has clients');
    return { seeded: false };
  }
  log(`inserted ${counts.join(', ')} in ${Date.now() - started} ms`);
  return { seeded: true };
}

/**
 * The fee e-invoice of every financed or paid invoice, issued by the same
 * function as a financing issues it (app/einvoices/outgoing.server.ts), in
 * the order they were financed so the yearly numbers follow the calendar.
 * Their sending is history here, as the rest of the book is: delivered a
 * couple of minutes after issue with the id the sandbox intermediary gives a
 * document, except the newest, whose sending failed (the intermediary's 503
 * that the integration log shows), waiting for 'Pošalji ponovno'.
 */
async function issueDemoFeeEInvoices(sequelize: Sequelize, transaction: Transaction): Promise<number> {
  const financed = await sequelize.query<{ id: string }>(
    `SELECT i.id FROM invoices i JOIN clients c ON c.id = i.client_id
      WHERE i.status IN ('financed', 'paid') ORDER BY i.financed_at, c.oib, i.invoice_number`,
    { type: QueryTypes.SELECT, transaction },
  );
  // Financings before e-invoices began (E_INVOICING_FROM) get none.
  const issued = await issueFeeEInvoices(
    financed.map(({ id }) => id),
    transaction,
    { send: false },
  );
  await sequelize.query(
    `UPDATE outgoing_einvoices
        SET status = 'delivered', document_id = 'EINV-' || left(ubl_sha256, 20), attempts = 1,
            sent_at = least(issued_at + interval '2 minutes', now())`,
    { transaction },
  );
  await sequelize.query(
    `UPDATE outgoing_einvoices
        SET status = 'failed', document_id = NULL, sent_at = NULL, attempts = 6,
            error = 'E-računi EN 16931: POST /documents answered HTTP 503'
      WHERE id = (SELECT id FROM outgoing_einvoices ORDER BY issued_at DESC, number DESC LIMIT 1)`,
    { transaction },
  );
  return issued.filter((einvoice) => einvoice !== null).length;
}

export { minimalPdf } from './demo/pdf.ts';
