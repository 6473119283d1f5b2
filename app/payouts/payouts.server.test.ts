import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import { activityRows, apiFailure, jsonRequest, rejection, signedInCookie } from '../auth/test-helpers.server.ts';
import { factorAccount } from '../banking/factor-account.server.ts';
import { isValidIban } from '../banking/iban.ts';
import { validatePain001 } from '../banking/pain001.server.ts';
import { parseBankXml } from '../banking/xml.server.ts';
import { child, children, textAt, type XmlElement } from '../xml/reader.server.ts';
import { selectRows } from '../db.server.ts';
import { action as exportAction } from '../routes/api.payouts.export.ts';
import { i18nConfig } from '../i18n.ts';
import { readApiError } from '../utils/api.server.ts';
import { toCents } from '../utils/money.ts';
import { refusalText } from '../utils/refusals.ts';
import { exportPayouts, listPayouts, markPayoutsPaid } from './payouts.server.ts';
import { book, financeableClient, financedInvoice, financingParties, insertCustomer } from '../../tests/factories.ts';

describe('payouts: pain.001 export', () => {
  it('exports two payouts as a valid pain.001.001.09 and refuses them a second time', async () => {
    const b = await book();
    const c1 = await financeableClient();
    const c2 = await financeableClient();
    const customer = await insertCustomer();
    const i1 = await financedInvoice(b, { clientId: c1.id, customerId: customer.id, amount: '1250.55' });
    const i2 = await financedInvoice(b, { clientId: c2.id, customerId: customer.id, amount: '9999.99' });
    const pending = (await listPayouts({ status: 'pending' })).items;
    const p1 = pending.find((p) => p.invoiceId === i1.id)!;
    const p2 = pending.find((p) => p.invoiceId === i2.id)!;
    expect(p1).toMatchObject({ kind: 'advance', amount: 1000.44, iban: c1.iban, clientName: c1.name, status: 'pending' });

    const file = await exportPayouts({ actor: b.manager, ids: [p1.id, p2.id], ip: '10.1.1.1' });
    expect(file.count).toBe(2);
    expect(validatePain001(file.xml).errors).toEqual([]);

    // Read back independently of the validator.
    const doc = parseBankXml(file.xml);
    expect(doc.ns).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    const header = child(doc, 'CstmrCdtTrfInitn/GrpHdr');
    const block = child(doc, 'CstmrCdtTrfInitn/PmtInf');
    const txs = children(block, 'CdtTrfTxInf');
    expect(textAt(header, 'NbOfTxs')).toBe('2');
    expect(textAt(block, 'NbOfTxs')).toBe('2');
    const expectedSum = toCents(i1.factor_amount) + toCents(i2.factor_amount);
    expect(toCents(textAt(header, 'CtrlSum')!)).toBe(expectedSum);
    expect(textAt(block, 'CtrlSum')).toBe(textAt(header, 'CtrlSum'));
    expect(textAt(header, 'MsgId')).toBe(file.batchId);
    expect(textAt(block, 'DbtrAcct/Id/IBAN')).toBe(factorAccount().iban);
    expect(textAt(block, 'DbtrAgt/FinInstnId/BICFI')).toBe(factorAccount().bic);
    expect(textAt(block, 'ReqdExctnDt/Dt')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const byIban: Record<string, XmlElement> = Object.fromEntries(txs.map((tx) => [textAt(tx, 'CdtrAcct/Id/IBAN'), tx]));
    expect(Object.keys(byIban).sort()).toEqual([c1.iban, c2.iban].sort());
    for (const [iban, tx] of Object.entries(byIban)) {
      expect(isValidIban(iban)).toBe(true);
      const invoice = iban === c1.iban ? i1 : i2;
      expect(textAt(tx, 'Amt/InstdAmt')).toBe(invoice.factor_amount);
      expect(child(tx, 'Amt/InstdAmt')!.attrs.Ccy).toBe('EUR');
      expect(textAt(tx, 'RmtInf/Ustrd')).toContain(invoice.invoice_number);
      expect(textAt(tx, 'PmtId/EndToEndId')!.length).toBeLessThanOrEqual(35);
    }

    const rows = await selectRows<{ status: string; export_batch_id: string; exported_at: Date }>('SELECT status, export_batch_id, exported_at FROM payouts WHERE id IN (:ids)', {
      ids: [p1.id, p2.id],
    });
    expect(rows.every((r) => r.status === 'exported' && r.export_batch_id === file.batchId && r.exported_at)).toBe(true);
    expect(await activityRows('payout_exported')).toHaveLength(2);

    const twice = await apiFailure(exportPayouts({ actor: b.manager, ids: [p1.id] }));
    expect(twice.status).toBe(409);
    // A second file gets another MsgId.
    const i3 = await financedInvoice(b, { clientId: c1.id, customerId: customer.id, amount: '100.00' });
    const p3 = (await listPayouts({ status: 'pending' })).items.find((p) => p.invoiceId === i3.id)!;
    const mixed = await apiFailure(exportPayouts({ actor: b.manager, ids: [p3.id, p2.id] }));
    expect(mixed.status).toBe(409);
    // The API quotes the raw status; the page names it in the reader's language.
    const refused = await readApiError(await rejection(exportPayouts({ actor: b.manager, ids: [p3.id, p2.id] })));
    expect(refused?.params).toEqual({ payouts: `${p2.invoiceNumber} (exported)` });
    expect(mixed.body.message).toBe(`Only pending payouts can be exported: ${p2.invoiceNumber} (exported)`);
    const hr = createInstance({ ...i18nConfig, lng: 'hr', initImmediate: false, saveMissing: false });
    await hr.init();
    expect(refusalText(hr.t, (key) => hr.exists(key), refused!.message)).toBe(`Izvesti se mogu samo isplate na čekanju: ${p2.invoiceNumber} (Izvezeno)`);
    expect((await listPayouts({ status: 'pending' })).items.some((p) => p.id === p3.id)).toBe(true);
    const other = await exportPayouts({ actor: b.manager, ids: [p3.id] });
    expect(other.batchId).not.toBe(file.batchId);

    // Marked paid once the bank confirms.
    const paid = await markPayoutsPaid({ actor: b.manager, ids: [p1.id] });
    expect(paid[0].status).toBe('paid');
    const paidTwice = await readApiError(await rejection(markPayoutsPaid({ actor: b.manager, ids: [p1.id] })));
    expect(paidTwice?.status).toBe(409);
    expect(refusalText(hr.t, (key) => hr.exists(key), paidTwice!.message)).toBe(`Isplaćenim se mogu označiti samo izvezene isplate: ${p1.invoiceNumber} (Isplaćeno)`);
  });

  it('answers the file over the API, only for managers; validation refuses an inconsistent file', async () => {
    const { b, client, customer } = await financingParties();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '500.00' });
    const payout = (await listPayouts({ status: 'pending' })).items.find((p) => p.invoiceId === invoice.id)!;
    const post = async (cookie: string, body: unknown) => exportAction({ request: jsonRequest('/api/payouts/export', body, cookie), params: {}, context: {} });
    expect((await apiFailure(post(await signedInCookie(b.user.id), { ids: [payout.id] }))).status).toBe(403);
    const managerCookie = await signedInCookie(b.manager.id);
    expect((await apiFailure(post(managerCookie, { ids: [] }))).status).toBe(400);
    expect((await apiFailure(post(managerCookie, { ids: ['00000000-0000-4000-8000-000000000001'] }))).status).toBe(404);
    // The payouts tab posts ids from a form: one that is no UUID is 404 on ids, not a SQL error.
    expect(await apiFailure(exportPayouts({ actor: b.manager, ids: ['x'] }))).toMatchObject({ status: 404, body: { errors: { ids: ['Payout not found'] } } });
    expect((await apiFailure(markPayoutsPaid({ actor: b.manager, ids: ['x'] }))).status).toBe(404);
    const response = (await post(managerCookie, { ids: [payout.id] })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('application/xml');
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename=".+\.xml"$/);
    const xml = await response.text();
    expect(validatePain001(xml).errors).toEqual([]);

    const broken = xml.replace('<NbOfTxs>1</NbOfTxs>', '<NbOfTxs>2</NbOfTxs>').replace(/<IBAN>HR(\d\d)/g, (_, d: string) => `<IBAN>HR${d === '00' ? '01' : '00'}`);
    const { errors } = validatePain001(broken);
    expect(errors.join('\n')).toMatch(/NbOfTxs does not match/);
    expect(errors.join('\n')).toMatch(/IBAN .*invalid/);
  });
});
