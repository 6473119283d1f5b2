import { beforeAll, describe, expect, it } from 'vitest';
import { apiFailure, getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { createTemplate } from '../email/templates.server.ts';
import { getObjectStore } from '../storage/object-store.server.ts';
import { loader as slipLoader } from '../routes/api.invoices.$invoiceId.payment-slip.ts';
import { createTestUser, insertClient, insertCustomer, insertInvoice, staff } from '../../tests/factories.ts';
import { pdf417InPdf } from '../../tests/support/pdf-barcode.ts';
import { pdfText } from '../../tests/support/pdf-text.ts';
import { REFERENCE_TEMPLATES } from '../../db/reference-data.ts';
import { runDunning } from './dunning.server.ts';
import { hub3Bytes, hub3Text } from './hub3.server.ts';

beforeAll(async () => {
  const admin = await staff('admin');
  const reference = REFERENCE_TEMPLATES.find((template) => template.trigger === 'dunning_3')!;
  await createTemplate({ actor: admin, input: { name: reference.name, trigger: reference.trigger, subject: reference.subject, body: reference.body, isActive: true } });
});

/** What a banking app reads: the barcode's bytes as ISO-8859-2 (the HUB3 character set), one field per line. */
async function scannedFields(pdf: Uint8Array): Promise<string[]> {
  const symbols = await pdf417InPdf(pdf);
  expect(symbols).toHaveLength(1);
  return new TextDecoder('iso-8859-2').decode(symbols[0]).split('\n');
}

async function debtorInvoice() {
  const client = await insertClient({ name: 'Prodavatelj Uplatnica d.o.o.' });
  const customer = await insertCustomer({ name: 'Kovačević i sinovi d.o.o.', email: 'financije@kovacevic.hr' });
  await execute(`UPDATE customers SET address = 'Ulica Žrtava fašizma 12', postal_code = '21000', city = 'Split' WHERE id = :id`, { id: customer.id });
  const id = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '12345.67', dueDate: '2026-10-01' });
  // A confirmed collection of 1,000.00 leaves 11,345.67 open.
  await execute(`UPDATE invoices SET paid_amount = 1000.00 WHERE id = :id`, { id });
  const row = (await selectOne<{ invoice_number: string; payment_reference: string }>('SELECT invoice_number, payment_reference FROM invoices WHERE id = :id', { id }))!;
  return { id, ...row };
}

describe('the payment slip', () => {
  it("the reminder's slip carries a PDF417 barcode that decodes to the invoice's HUB3 fields", async () => {
    const invoice = await debtorInvoice();
    await runDunning({ day: '2026-10-08' });
    const notice = (await selectOne<{ storage_key: string; name: string; mime_type: string; entity_id: string }>(
      `SELECT d.storage_key, d.name, d.mime_type, d.entity_id FROM dunning_notices n JOIN documents d ON d.id = n.document_id WHERE n.invoice_id = :id AND n.level = 3`,
      { id: invoice.id },
    ))!;
    expect(notice).toMatchObject({ mime_type: 'application/pdf', entity_id: invoice.id, name: `uplatnica-${invoice.invoice_number.replace(/\//g, '-')}.pdf` });
    const pdf = await getObjectStore().get(notice.storage_key);

    // Each field computed here from the invoice, the debtor and the factor's defaults, not by the code under test.
    const [model, reference] = [invoice.payment_reference.slice(0, 4), invoice.payment_reference.slice(5)];
    expect(model).toBe('HR00');
    expect(await scannedFields(pdf)).toEqual([
      'HRVHUB30',
      'EUR',
      // 12,345.67 − 1,000.00 = 11,345.67 EUR = 1,134,567 cents, fifteen digits.
      '000000001134567',
      'Kovačević i sinovi d.o.o.',
      'Ulica Žrtava fašizma 12',
      '21000 Split',
      'FinFlow Faktoring d.o.o.',
      'Radnička cesta 80',
      '10000 Zagreb',
      'HR7224020061100123456',
      'HR00',
      reference,
      'OTHR',
      `Plaćanje fakture ${invoice.invoice_number}`,
      // Every field ends with a line feed, the last one too.
      '',
    ]);
    const text = await pdfText(pdf);
    expect(text).toContain(`Uplatnica za fakturu ${invoice.invoice_number}`);
    expect(text).toContain('Iznos za plaćanje: 11.345,67 EUR');
    expect(text).toContain(`Model i poziv na broj: ${invoice.payment_reference}`);
  });

  it('GET /api/invoices/{id}/payment-slip: the slip for today’s open amount; 409 for an invoice never financed, 404 for none', async () => {
    const invoice = await debtorInvoice();
    await execute(`UPDATE invoices SET paid_amount = 12000.00 WHERE id = :id`, { id: invoice.id });
    const user = await createTestUser({ role: 'user' });
    const cookie = await signedInCookie(user.id as string);
    const get = (id: string) => slipLoader({ request: getRequest(`/api/invoices/${id}/payment-slip`, cookie), params: { invoiceId: id }, context: {} });
    const response = await get(invoice.id);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toContain('attachment; filename="uplatnica-');
    const fields = await scannedFields(new Uint8Array(await response.arrayBuffer()));
    // 12,345.67 − 12,000.00 = 345.67.
    expect(fields[2]).toBe('000000000034567');

    const client = await insertClient();
    const customer = await insertCustomer();
    const pending = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '10.00', dueDate: '2026-10-01', status: 'pending' });
    expect(await apiFailure(get(pending))).toMatchObject({ status: 409, body: { code: 'dunning.errors.noPaymentReference' } });
    expect((await apiFailure(get('00000000-0000-4000-8000-000000000009'))).status).toBe(404);
  });
});

describe('the HUB3 data string', () => {
  const payment = {
    amountCents: 5,
    payer: { name: 'Poduzeće s vrlo dugačkim nazivom koji ne stane d.o.o.', street: 'Ulica\nkralja Tomislava 1', place: '10000 Zagreb' },
    recipient: { name: 'Primatelj € Åland d.o.o.', street: 'Ilica 1', place: '10000 Zagreb' },
    iban: 'HR7224020061100123456',
    model: 'HR00',
    reference: '2026-7-000001',
    purposeCode: 'OTHR',
    description: 'Plaćanje fakture 1',
  };

  it('cuts each field to its length, keeps one line per field, and writes ISO-8859-2', () => {
    const lines = hub3Text(payment).split('\n');
    expect(lines[2]).toBe('000000000000005');
    expect(lines[3]).toBe('Poduzeće s vrlo dugačkim naziv');
    expect(lines[3]).toHaveLength(30);
    expect(lines[4]).toBe('Ulica kralja Tomislava 1');
    // The euro sign has no ISO-8859-2 byte; Å loses its ring (Latin-2 has no Å).
    expect(lines[6]).toBe('Primatelj ? Aland d.o.o.');
    expect(lines).toHaveLength(15);
    const bytes = hub3Bytes('čćđšžČĆĐŠŽ');
    expect([...bytes]).toEqual([0xe8, 0xe6, 0xf0, 0xb9, 0xbe, 0xc8, 0xc6, 0xd0, 0xa9, 0xae]);
  });

  it('refuses an amount that does not fit fifteen digits', () => {
    expect(() => hub3Text({ ...payment, amountCents: 10 ** 15 })).toThrow('does not fit 15 digits');
  });
});
