import { describe, expect, it } from 'vitest';
import { selectOne, selectRows } from '../db.server.ts';
import { invoiceLedgerBalance, ledgerDebtorExposure, ledgerUsedCredit } from '../ledger/ledger.server.ts';
import { statement } from '../ledger/statement.server.ts';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import { createInstance } from 'i18next';
import { financedFees } from '../invoices/page.server.ts';
import { i18nConfig } from '../i18n.ts';
import { encodeRefusal, refusalText, type RefusalParams } from '../utils/refusals.ts';
import { approveWriteOff, invoiceWriteOffRequests, listWriteOffRequests, rejectWriteOff, requestWriteOff } from './write-off.server.ts';
import { book, financeableClient, financedInvoice, insertCustomer, staff, zagrebDay } from '../../tests/factories.ts';
import { cents, kindSums, roundHalfUp } from '../../tests/support/ledger-figures.ts';

/** Write-off of a non-recourse invoice (docs/money.md#recourse-and-write-off): two people, the loss the factor's. */

/** A refusal as the pages show it in Croatian (app/utils/refusals.ts). */
async function croatian(encoded: string) {
  const hr = createInstance({ ...i18nConfig, lng: 'hr', initImmediate: false, saveMissing: false });
  await hr.init();
  return refusalText(hr.t, (key) => hr.exists(key), encoded);
}

async function nonRecourseBook() {
  const b = await book();
  const [admin, admin2] = await Promise.all([staff('admin'), staff('admin')]);
  const client = await financeableClient({ agreement: { recourseDays: null } });
  const customer = await insertCustomer();
  return { b, admin, admin2, client, customer };
}

describe('writing off a non-recourse invoice', () => {
  it('needs a manager to ask and another person, an admin, to approve; books the loss so the client owes nothing and used credit is released', async () => {
    const { b, admin, admin2, client, customer } = await nonRecourseBook();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '2000.00' });
    // 80 % advance, 1.5 % per started 30 days on the amount for the 40 days to the due date (two periods), VAT 25 %.
    const advance = 160_000;
    const fee = roundHalfUp(200_000 * 15 * 2, 1000);
    const vat = roundHalfUp(fee * 25, 100);
    expect(await invoiceLedgerBalance(invoice.id)).toBe(advance + fee + vat);

    const request = await requestWriteOff({ actor: admin, invoiceId: invoice.id, input: { reason: 'Dužnik likvidiran' }, ip: '10.0.0.1' });
    expect(request).toMatchObject({ status: 'pending', invoiceNumber: invoice.invoice_number, lossAmount: (advance + fee + vat) / 100 });
    const second = await apiFailure(requestWriteOff({ actor: b.manager, invoiceId: invoice.id, input: { reason: 'opet' } }));
    expect([second.status, second.body.message]).toEqual([409, `A write-off of invoice ${invoice.invoice_number} is already waiting for approval`]);

    // The requester may not approve it (four eyes), a manager may not decide at all.
    const own = await apiFailure(approveWriteOff({ actor: admin, id: request.id }));
    expect([own.status, own.body.message]).toEqual([403, 'You cannot decide your own write-off request']);
    expect((await apiFailure(approveWriteOff({ actor: b.manager, id: request.id }))).status).toBe(403);
    expect((await selectOne<{ status: string }>('SELECT status FROM invoices WHERE id = :id', { id: invoice.id }))!.status).toBe('financed');
    expect(await ledgerUsedCredit(client.id)).toBe(advance);

    const approved = await approveWriteOff({ actor: admin2, id: request.id, ip: '10.0.0.2' });
    expect(approved).toMatchObject({ status: 'approved', decidedBy: admin2.id, lossAmount: (advance + fee + vat) / 100 });
    expect((await selectOne<{ status: string; written_off_by: string }>('SELECT status, written_off_by FROM invoices WHERE id = :id', { id: invoice.id }))!).toEqual({
      status: 'written_off',
      written_off_by: admin2.id,
    });
    // The loss is credited: the advance leaves the financing, the fees not collected are written off; the client owes nothing on it.
    expect(await kindSums(invoice.id)).toEqual({ advance: 0, fee, fee_vat: vat, write_off: -(fee + vat) });
    expect(await invoiceLedgerBalance(invoice.id)).toBe(0);
    expect(await ledgerUsedCredit(client.id)).toBe(0);
    expect(cents((await selectOne<{ used: string }>('SELECT used_credit AS used FROM clients WHERE id = :id', { id: client.id }))!.used)).toBe(0);
    expect(await ledgerDebtorExposure(customer.id)).toBe(0);
    expect(cents((await selectOne<{ used: string }>('SELECT used_credit AS used FROM customers WHERE id = :id', { id: customer.id }))!.used)).toBe(0);
    const account = await statement(client.id, zagrebDay(-1), zagrebDay(0));
    expect([account.broughtForward, account.closing]).toEqual([0, 0]);
    expect(account.totalDebit * 100).toBeCloseTo(advance + fee + vat, 6);
    expect(account.totalCredit * 100).toBeCloseTo(advance + fee + vat, 6);

    // The invoice page still shows its terms: the fee charged at financing, and the fee accrued up to the write-off.
    expect(await financedFees({ id: invoice.id, status: 'written_off' })).toMatchObject({
      feeCharged: fee / 100,
      feeAccrued: roundHalfUp(200_000 * 15, 1000) / 100,
      accruedUntil: zagrebDay(0),
    });

    const [logged] = await activityRows('invoice_written_off', invoice.id);
    expect(logged).toMatchObject({ user_id: admin2.id, details: { loss: (advance + fee + vat) / 100, requestedBy: admin.id } });
    const again = await apiFailure(approveWriteOff({ actor: admin2, id: request.id }));
    expect([again.status, again.body.message]).toEqual([409, 'The write-off request is approved, not pending']);
    // The page says it in the reader's language, the status by its label.
    const { code, params } = again.body as unknown as { code: string; params: RefusalParams };
    expect(await croatian(encodeRefusal(code, params))).toBe('Zahtjev za otpis je u statusu „Odobren”, ne čeka odluku');
    expect((await apiFailure(requestWriteOff({ actor: b.manager, invoiceId: invoice.id, input: { reason: 'x' } }))).status).toBe(409);
  });

  it('a rejection keeps the invoice financed; a recourse invoice cannot be written off; the list pages and filters', async () => {
    const { b, admin, client, customer } = await nonRecourseBook();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '1000.00' });
    const request = await requestWriteOff({ actor: b.manager, invoiceId: invoice.id, input: { reason: 'Spor' } });
    expect((await apiFailure(rejectWriteOff({ actor: admin, id: request.id, input: { reason: '' } }))).status).toBe(400);
    const rejected = await rejectWriteOff({ actor: admin, id: request.id, input: { reason: 'Još se naplaćuje' } });
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'Još se naplaćuje', lossAmount: 0 });
    expect((await selectOne<{ status: string }>('SELECT status FROM invoices WHERE id = :id', { id: invoice.id }))!.status).toBe('financed');
    expect(await kindSums(invoice.id)).not.toHaveProperty('write_off');
    expect(await activityRows('write_off_rejected', invoice.id)).toHaveLength(1);

    const recourseClient = await financeableClient();
    const recourse = await financedInvoice(b, { clientId: recourseClient.id, customerId: customer.id, amount: '1000.00' });
    const refused = await apiFailure(requestWriteOff({ actor: b.manager, invoiceId: recourse.id, input: { reason: 'x' } }));
    expect([refused.status, refused.body.message]).toEqual([409, `Invoice ${recourse.invoice_number} is financed with recourse; charge it back instead of writing it off`]);
    expect((await apiFailure(requestWriteOff({ actor: b.user, invoiceId: invoice.id, input: { reason: 'x' } }))).status).toBe(403);

    const pending = await requestWriteOff({ actor: b.manager, invoiceId: invoice.id, input: { reason: 'Ponovno' } });
    const onlyPending = await listWriteOffRequests({ status: 'pending', limit: 10 });
    expect(onlyPending.items.map((item) => item.id)).toContain(pending.id);
    expect(onlyPending.items.every((item) => item.status === 'pending')).toBe(true);
    const all = await listWriteOffRequests({ limit: 1 });
    expect(all.items).toHaveLength(1);
    expect(all.total).toBe((await selectRows('SELECT id FROM write_off_requests')).length);
    expect((await apiFailure(listWriteOffRequests({ status: 'done' }))).status).toBe(400);
    expect((await invoiceWriteOffRequests(invoice.id)).map((item) => item.status)).toEqual(['pending', 'rejected']);
  });
});
