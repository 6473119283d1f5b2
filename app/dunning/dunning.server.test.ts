import { beforeAll, describe, expect, it } from 'vitest';
import { activityRows, apiFailure, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { addCreditNote } from '../dilution/credit-notes.server.ts';
import { createTemplate } from '../email/templates.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { openForPaymentSql, payableSql } from '../payments/open-amount.server.ts';
import { recordPayment } from '../payments/payment-recording.server.ts';
import { chargeBackInvoice } from '../recourse/recourse.server.ts';
import { getObjectStore } from '../storage/object-store.server.ts';
import { addDays } from '../utils/business-time.ts';
import { action as holdAction } from '../routes/api.invoices.$invoiceId.dunning-hold.ts';
import { book, createTestUser, financeableClient, insertClient, insertCustomer, insertInvoice, newInvoice, staff, zagrebDay, type Book } from '../../tests/factories.ts';
import { atBusinessDay } from '../../tests/support/business-day.ts';
import { pdf417InPdf } from '../../tests/support/pdf-barcode.ts';
import { pdfText } from '../../tests/support/pdf-text.ts';
import { REFERENCE_TEMPLATES } from '../../db/reference-data.ts';
import { invoiceDunning, runDunning, setDunningHold } from './dunning.server.ts';
import { dunningLevels, setDunningLevels } from './levels.server.ts';
import { DEFAULT_DUNNING_LEVELS, levelsFormValues } from './schemas.ts';

/** The four reference templates of the reminder levels, active (a test database holds no reference data). */
beforeAll(async () => {
  const admin = await staff('admin');
  for (const level of [1, 2, 3, 4]) {
    const reference = REFERENCE_TEMPLATES.find((template) => template.trigger === `dunning_${level}`)!;
    await createTemplate({ actor: admin, input: { name: reference.name, trigger: reference.trigger, subject: reference.subject, body: reference.body, isActive: true } });
  }
});

const DUE = '2026-12-10';

async function financed(values: { amount?: string; dueDate?: string; email?: string | null; customerName?: string } = {}) {
  const client = await insertClient({ name: 'Prodavatelj Opomena d.o.o.' });
  const customer = await insertCustomer({ email: values.email === undefined ? 'racunovodstvo@kupac.hr' : values.email, name: values.customerName });
  const id = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: values.amount ?? '1250.40', dueDate: values.dueDate ?? DUE });
  return { id, clientId: client.id, customerId: customer.id };
}

async function notices(invoiceId: string) {
  return selectRows<{ level: number; day: string; status: string; skip_reason: string | null; email_log_id: string | null; document_id: string | null; open_amount: string }>(
    `SELECT level, to_char(day, 'YYYY-MM-DD') AS day, status, skip_reason, email_log_id, document_id, open_amount FROM dunning_notices WHERE invoice_id = :id ORDER BY level`,
    { id: invoiceId },
  );
}

async function mails(invoiceId: string) {
  return selectRows<{ id: string; recipient: string; subject: string; customer_id: string; attachments: number }>(
    `SELECT l.id, l.recipient, l.subject, l.customer_id, (SELECT count(*)::int FROM email_attachments a WHERE a.email_log_id = l.id) AS attachments
       FROM email_logs l WHERE l.invoice_id = :id ORDER BY l.created_at, l.id`,
    { id: invoiceId },
  );
}

describe('the daily job', () => {
  it('sends each level once on its day, walking the business day from six days before the due date to 31 after', async () => {
    const invoice = await financed();
    const sentOn: Record<string, number[]> = {};
    for (let offset = -6; offset <= 31; offset += 1) {
      const day = addDays(DUE, offset);
      const before = (await notices(invoice.id)).map((notice) => notice.level);
      await runDunning({ day });
      // A second run the same day changes nothing.
      await runDunning({ day });
      const after = (await notices(invoice.id)).map((notice) => notice.level);
      const added = after.filter((level) => !before.includes(level));
      if (added.length > 0) sentOn[offset] = added;
    }
    expect(sentOn).toEqual({ '-5': [1], '0': [2], '7': [3], '30': [4] });
    const rows = await notices(invoice.id);
    expect(rows.map((row) => [row.level, row.day, row.status])).toEqual([
      [1, '2026-12-05', 'sent'],
      [2, '2026-12-10', 'sent'],
      [3, '2026-12-17', 'sent'],
      [4, '2027-01-09', 'sent'],
    ]);
    // Every send: one mail to the debtor naming it and the invoice, with the payment slip attached, and an activity row.
    const sent = await mails(invoice.id);
    expect(sent).toHaveLength(4);
    expect(sent.every((mail) => mail.recipient === 'racunovodstvo@kupac.hr' && mail.customer_id === invoice.customerId && mail.attachments === 1)).toBe(true);
    expect(rows.map((row) => row.email_log_id)).toEqual(sent.map((mail) => mail.id));
    expect(rows.every((row) => row.document_id !== null && row.open_amount === '1250.40')).toBe(true);
    expect(sent[0].subject).toBe(`Podsjetnik: faktura ${await invoiceNumber(invoice.id)} dospijeva 10.12.2026.`);
    expect(await activityRows('dunning_notice_sent', invoice.id)).toHaveLength(4);
  });

  it("fills the templates' variables: due date as dd.mm.yyyy., the open amount and the reference", async () => {
    const invoice = await financed({ amount: '2000.00' });
    // A confirmed collection of 750.25 (paid_amount is what confirming a payment keeps).
    await execute(`UPDATE invoices SET paid_amount = 750.25 WHERE id = :id`, { id: invoice.id });
    await runDunning({ day: DUE });
    const [notice] = await notices(invoice.id);
    expect(notice).toMatchObject({ level: 2, open_amount: '1249.75' });
    const variables = await mailVariables(notice.email_log_id!);
    const reference = (await selectOne<{ payment_reference: string; invoice_number: string }>('SELECT payment_reference, invoice_number FROM invoices WHERE id = :id', {
      id: invoice.id,
    }))!;
    expect(variables).toEqual({
      debtor_name: expect.any(String),
      factor_name: 'FinFlow Faktoring d.o.o.',
      factor_iban: 'HR7224020061100123456',
      invoice_number: reference.invoice_number,
      company_name: 'Prodavatelj Opomena d.o.o.',
      due_date: '10.12.2026.',
      open_amount: '1249.75',
      payment_reference: reference.payment_reference,
      amount: '2000.00',
    });
  });

  it('catching up sends only the highest level due, never an earlier one after a later one', async () => {
    const invoice = await financed();
    await runDunning({ day: addDays(DUE, 8) });
    expect((await notices(invoice.id)).map((row) => row.level)).toEqual([3]);
    await runDunning({ day: addDays(DUE, 9) });
    await runDunning({ day: addDays(DUE, 29) });
    expect((await notices(invoice.id)).map((row) => row.level)).toEqual([3]);
    await runDunning({ day: addDays(DUE, 45) });
    expect((await notices(invoice.id)).map((row) => row.level)).toEqual([3, 4]);
    expect(await mails(invoice.id)).toHaveLength(2);
  });

  it('sends nothing after payment, for a payment waiting to be confirmed, while disputed or on hold, nor for an invoice not financed', async () => {
    const paid = await financed();
    await execute(`UPDATE invoices SET status = 'paid', paid_amount = amount, paid_at = now() WHERE id = :id`, { id: paid.id });
    const pendingPayment = await financed();
    await execute(`INSERT INTO payments (invoice_id, amount, status) VALUES (:id, 1250.40, 'pending')`, { id: pendingPayment.id });
    const disputed = await financed();
    await execute(`UPDATE invoices SET disputed = true, dispute_reason = 'Roba nije isporučena' WHERE id = :id`, { id: disputed.id });
    const held = await financed();
    const manager = await staff('manager');
    await setDunningHold({ actor: manager, invoiceId: held.id, input: { hold: true, reason: 'Dogovor o obročnoj otplati' } });
    const client = await insertClient();
    const customer = await insertCustomer({ email: 'kupac@primjer.hr' });
    const approved = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '100.00', dueDate: DUE, status: 'pending' });

    for (const offset of [-5, 0, 7, 30]) await runDunning({ day: addDays(DUE, offset) });
    for (const invoice of [paid, pendingPayment, disputed, held, { id: approved }]) {
      expect(await notices(invoice.id)).toEqual([]);
      expect(await mails(invoice.id)).toEqual([]);
    }

    // Lifting the hold: the highest level due that day goes out, the missed ones do not.
    await setDunningHold({ actor: manager, invoiceId: held.id, input: { hold: false, reason: 'Obroci nisu plaćeni' } });
    await runDunning({ day: addDays(DUE, 31) });
    expect((await notices(held.id)).map((row) => row.level)).toEqual([4]);
  });

  it('records a level as skipped, with the reason, for a debtor without email and a level whose template is off', async () => {
    const silent = await financed({ email: null });
    await runDunning({ day: addDays(DUE, -5) });
    expect(await notices(silent.id)).toEqual([
      { level: 1, day: '2026-12-05', status: 'skipped', skip_reason: 'no_email', email_log_id: null, document_id: null, open_amount: '1250.40' },
    ]);
    expect(await mails(silent.id)).toEqual([]);
    expect((await activityRows('dunning_notice_skipped', silent.id))[0].details).toMatchObject({ level: 1, skipped: 'no_email' });

    const untemplated = await financed({ dueDate: '2026-12-20' });
    await execute(`UPDATE email_templates SET is_active = false WHERE trigger = 'dunning_2'`);
    try {
      await runDunning({ day: '2026-12-20' });
    } finally {
      await execute(`UPDATE email_templates SET is_active = true WHERE trigger = 'dunning_2'`);
    }
    expect((await notices(untemplated.id)).map((row) => [row.level, row.status, row.skip_reason])).toEqual([[2, 'skipped', 'no_template']]);
    const view = await invoiceDunning(untemplated.id);
    expect(view.notices).toEqual([expect.objectContaining({ level: 2, status: 'skipped', skipReason: 'no_template', emailStatus: null })]);
  });

  it('two workers running it at once send each level once', async () => {
    const invoices = await Promise.all([financed({ dueDate: '2027-02-01' }), financed({ dueDate: '2027-02-01' }), financed({ dueDate: '2027-02-01' })]);
    const runs = await Promise.all([runDunning({ day: '2027-02-01' }), runDunning({ day: '2027-02-01' })]);
    // Between them the two runs sent exactly what the book holds for the day (earlier tests' invoices included).
    const written = await selectRows(`SELECT 1 FROM dunning_notices WHERE day = '2027-02-01'`);
    expect(runs.reduce((sum, run) => sum + run.sent + run.skipped, 0)).toBe(written.length);
    for (const invoice of invoices) {
      expect((await notices(invoice.id)).map((row) => row.level)).toEqual([2]);
      expect(await mails(invoice.id)).toHaveLength(1);
    }
  });
});

/** The variables the queued mail of an email log row is written with (the email-send job's data). */
async function mailVariables(emailLogId: string) {
  const job = await selectOne<{ data: { variables: Record<string, string> } }>(`SELECT data FROM pgboss.job WHERE name = 'email-send' AND singleton_key = :id`, {
    id: emailLogId,
  });
  return job!.data.variables;
}

async function invoiceNumber(id: string) {
  return (await selectOne<{ invoice_number: string }>('SELECT invoice_number FROM invoices WHERE id = :id', { id }))!.invoice_number;
}

describe('the levels (book settings)', () => {
  it('default to -5, 0, +7 and +30 until an admin changes them', async () => {
    expect(await dunningLevels()).toEqual(DEFAULT_DUNNING_LEVELS);
  });

  it('refuse days that do not rise strictly, and a manager, changing nothing', async () => {
    const admin = await staff('admin');
    const manager = await staff('manager');
    const values = { ...levelsFormValues(DEFAULT_DUNNING_LEVELS), level3Days: '0' };
    const refused = await apiFailure(setDunningLevels({ actor: admin, input: values }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'dunning.errors.daysNotIncreasing', errorCodes: { level3Days: [{ code: 'dunning.errors.daysNotIncreasing' }] } });
    expect((await apiFailure(setDunningLevels({ actor: admin, input: { ...levelsFormValues(DEFAULT_DUNNING_LEVELS), level1Days: '-400' } }))).status).toBe(400);
    expect((await apiFailure(setDunningLevels({ actor: manager, input: levelsFormValues(DEFAULT_DUNNING_LEVELS) }))).status).toBe(403);
    expect(await selectOne(`SELECT 1 FROM book_settings WHERE key = 'dunning_levels'`)).toBeNull();
  });

  it('apply the admin’s days and switches, logged with the old and new levels', async () => {
    const admin = await staff('admin');
    const input = {
      intent: 'dunning-levels',
      level1Days: '-3',
      level2Days: '2',
      level2Enabled: 'on',
      level3Days: '10',
      level3Enabled: 'on',
      level4Days: '40',
      level4Enabled: 'on',
    } as const;
    try {
      await setDunningLevels({ actor: admin, input });
      expect(await dunningLevels()).toEqual([
        { level: 1, days: -3, enabled: false },
        { level: 2, days: 2, enabled: true },
        { level: 3, days: 10, enabled: true },
        { level: 4, days: 40, enabled: true },
      ]);
      const invoice = await financed({ dueDate: '2027-03-01' });
      const sentOn: Record<string, number[]> = {};
      for (let offset = -6; offset <= 41; offset += 1) {
        await runDunning({ day: addDays('2027-03-01', offset) });
        const levels = (await notices(invoice.id)).filter((row) => row.day === addDays('2027-03-01', offset)).map((row) => row.level);
        if (levels.length) sentOn[offset] = levels;
      }
      expect(sentOn).toEqual({ '2': [2], '10': [3], '40': [4] });
      const [logged] = await selectRows<{ details: { key: string; before: unknown[]; after: unknown[] } }>(
        `SELECT details FROM activity_logs WHERE action = 'book_setting_changed' AND details ->> 'key' = 'dunning_levels'`,
      );
      expect(logged.details.before).toEqual(DEFAULT_DUNNING_LEVELS);
      expect(logged.details.after).toEqual(await dunningLevels());
    } finally {
      await execute(`DELETE FROM book_settings WHERE key = 'dunning_levels'`);
    }
  });
});

describe('the hold', () => {
  it('is set with a reason and lifted by a manager, each logged; refusals change nothing', async () => {
    const invoice = await financed();
    const user = await staff('user');
    const manager = await staff('manager');
    expect((await apiFailure(setDunningHold({ actor: user, invoiceId: invoice.id, input: { hold: true, reason: 'x' } }))).status).toBe(403);
    const noReason = await apiFailure(setDunningHold({ actor: manager, invoiceId: invoice.id, input: { hold: true, reason: '  ' } }));
    expect(noReason).toMatchObject({ status: 400, body: { code: 'dunning.errors.reasonRequired', errorCodes: { reason: [{ code: 'dunning.errors.reasonRequired' }] } } });
    expect((await apiFailure(setDunningHold({ actor: manager, invoiceId: invoice.id, input: { hold: false } }))).body).toMatchObject({ code: 'dunning.errors.notOnHold' });

    const held = await setDunningHold({ actor: manager, invoiceId: invoice.id, input: { hold: true, reason: 'Pregovori s dužnikom' } });
    expect(held.hold).toMatchObject({ reason: 'Pregovori s dužnikom', heldBy: manager.id });
    expect((await apiFailure(setDunningHold({ actor: manager, invoiceId: invoice.id, input: { hold: true, reason: 'Opet' } }))).status).toBe(409);
    const lifted = await setDunningHold({ actor: manager, invoiceId: invoice.id, input: { hold: false } });
    expect(lifted.hold).toBeNull();
    expect((await activityRows('dunning_hold_set', invoice.id))[0]).toMatchObject({ user_id: manager.id, details: { reason: 'Pregovori s dužnikom' } });
    expect(await activityRows('dunning_hold_lifted', invoice.id)).toHaveLength(1);
    expect(await selectRows('SELECT 1 FROM dunning_holds WHERE invoice_id = :id', { id: invoice.id })).toHaveLength(1);

    const paid = await financed();
    await execute(`UPDATE invoices SET status = 'paid', paid_amount = amount, paid_at = now() WHERE id = :id`, { id: paid.id });
    expect((await apiFailure(setDunningHold({ actor: manager, invoiceId: paid.id, input: { hold: true, reason: 'x' } }))).status).toBe(409);
  });

  it('PUT /api/invoices/{id}/dunning-hold {hold, reason}: 200 with the dunning state, 400 without a reason, 404 for an unknown invoice', async () => {
    const invoice = await financed();
    const manager = await createTestUser({ role: 'manager' });
    const cookie = await signedInCookie(manager.id as string);
    const put = (id: string, body: unknown) =>
      holdAction({ request: jsonRequest(`/api/invoices/${id}/dunning-hold`, body, cookie, 'PUT'), params: { invoiceId: id }, context: {} });
    const response = await put(invoice.id, { hold: true, reason: 'Stečajni postupak u najavi' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ invoiceId: invoice.id, hold: { reason: 'Stečajni postupak u najavi' }, notices: [] });
    expect((await apiFailure(put(invoice.id, { hold: 'yes' }))).status).toBe(400);
    expect((await apiFailure(put('00000000-0000-4000-8000-000000000001', { hold: false }))).status).toBe(404);
  });
});

/**
 * Credit notes and recourse (docs/collections.md#dunning): invoices taken through the real financing, credit note,
 * payment and chargeback, so the open amount and the status are what those flows leave. Each is 10,000.00, financed
 * 40 days ago and due in 5 days; the figures expected are computed here in cents.
 */
describe('credit notes and chargebacks', () => {
  /** Under the factories' default agreement: disclosed, with recourse. */
  async function purchased(b: Book) {
    const client = await financeableClient();
    const customer = await insertCustomer({ email: 'naplata@duznik.hr', name: 'Dužnik Odobrenja d.o.o.' });
    const invoice = await newInvoice(b.user, client.id, customer.id, { amount: '10000.00', issueDate: zagrebDay(-45), dueDate: zagrebDay(5) });
    await verifyInvoice({ actor: b.manager, id: invoice.id });
    await approveInvoice({ actor: b.manager2, id: invoice.id });
    await atBusinessDay(zagrebDay(-40), (transaction) => financeInvoice({ actor: b.manager, id: invoice.id }, { transaction }));
    return invoice;
  }
  const credit = (b: Book, invoiceId: string, number: string, amount: string) =>
    addCreditNote({ actor: b.manager, invoiceId, input: { number, issueDate: zagrebDay(0), amount, reason: 'Povrat dijela robe' } });
  const statusOf = async (id: string) => (await selectOne<{ status: string }>('SELECT status FROM invoices WHERE id = :id', { id }))!.status;

  it('a credit note lowers what the reminder and its slip ask for, to the cent; nothing open after credit notes and payments, no reminder', async () => {
    const b = await book();
    const credited = await purchased(b);
    await credit(b, credited.id, 'ODB-1', '2500.55');
    // 10,000.00 − 2,500.55 = 7,499.45 EUR = 749,945 cents.
    const open = 1_000_000 - 250_055;

    const fullyCredited = await purchased(b);
    await credit(b, fullyCredited.id, 'ODB-2', '10000.00');
    // Credited in full it is settled: nothing is owed.
    expect(await statusOf(fullyCredited.id)).toBe('paid');

    // Still financed, but what the credit note leaves is waiting for its payment to be confirmed.
    const covered = await purchased(b);
    await credit(b, covered.id, 'ODB-3', '4000.00');
    await recordPayment({ actor: b.user, input: { invoiceId: covered.id, amount: '6000.00', paymentMethod: 'bank_transfer' } });
    expect(await statusOf(covered.id)).toBe('financed');
    expect(await selectOne(`SELECT 1 FROM invoices i WHERE i.id = :id AND ${payableSql('i')}`, { id: covered.id })).toBeNull();

    await runDunning({ day: zagrebDay(5) });
    const [notice] = await notices(credited.id);
    expect(notice).toMatchObject({ level: 2, status: 'sent', open_amount: '7499.45' });
    expect(await mailVariables(notice.email_log_id!)).toMatchObject({ open_amount: '7499.45', amount: '10000.00' });
    expect((await invoiceDunning(credited.id)).notices[0].openAmount).toBe(open / 100);

    const slip = (await selectOne<{ storage_key: string }>('SELECT storage_key FROM documents WHERE id = :id', { id: notice.document_id }))!;
    const pdf = await getObjectStore().get(slip.storage_key);
    const [symbol] = await pdf417InPdf(pdf);
    expect(new TextDecoder('iso-8859-2').decode(symbol).split('\n')[2]).toBe(String(open).padStart(15, '0'));
    expect(await pdfText(pdf)).toContain('Iznos za plaćanje: 7.499,45 EUR');

    for (const invoice of [fullyCredited, covered]) {
      expect(await notices(invoice.id)).toEqual([]);
      expect(await activityRows('dunning_notice_sent', invoice.id)).toEqual([]);
    }
  });

  it('a charged-back invoice gets no reminder and takes no hold, though the debtor may still pay it', async () => {
    const b = await book();
    const chargedBack = await purchased(b);
    const stillFinanced = await purchased(b);
    await chargeBackInvoice({ actor: b.manager, id: chargedBack.id, input: { reason: 'Dužnik u blokadi' } });
    expect(await statusOf(chargedBack.id)).toBe('charged_back');
    // Still open for the debtor's payment: the payable predicate admits it; dunning's own rule leaves it out.
    const payable = await selectOne<{ open: string }>(`SELECT ${openForPaymentSql('i')} AS open FROM invoices i WHERE i.id = :id AND ${payableSql('i')}`, { id: chargedBack.id });
    expect(payable).toEqual({ open: '10000.00' });

    await runDunning({ day: zagrebDay(12) });
    expect(await notices(chargedBack.id)).toEqual([]);
    expect((await notices(stillFinanced.id)).map((row) => [row.level, row.open_amount])).toEqual([[3, '10000.00']]);

    const refused = await apiFailure(setDunningHold({ actor: b.manager, invoiceId: chargedBack.id, input: { hold: true, reason: 'Pregovori' } }));
    expect(refused).toMatchObject({ status: 409, body: { code: 'dunning.errors.notDunnable' } });
    expect(await selectRows('SELECT 1 FROM dunning_holds WHERE invoice_id = :id', { id: chargedBack.id })).toEqual([]);
  });
});
