import fs from 'node:fs';
import path from 'node:path';
import type PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { handler as sendHandler } from '../../worker/jobs/einvoice-send.ts';
import { activityRows, apiFailure, getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { ensureIntegrations } from '../integrations/core.server.ts';
import { documentIdOf, mailboxDir } from '../integrations/einvoicing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { createInvoice } from '../invoices/invoice-create.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { loader as listLoader } from '../routes/api.einvoices.ts';
import { loader as ublLoader } from '../routes/api.einvoices.$id.ubl.ts';
import { validateEn16931 } from './en16931-rules.server.ts';
import { resendEInvoice } from './outgoing-send.server.ts';
import { listInvoiceFeeDocuments, SEND_QUEUE } from './outgoing.server.ts';
import { issueFeeSettlementDocument } from './fee-settlement.server.ts';
import { financeableClient, insertCustomer, insertInvoice, newInvoiceNumber, newOib, staff, zagrebDay } from '../../tests/factories.ts';

/**
 * The fee documents of a settlement (docs/decisions/015-fee-documents-at-settlement.md),
 * against a real database: the completing fee invoice (380) and the credit
 * note (a UBL CreditNote, 381) for the difference between the final fee and
 * the fee invoiced at financing, with figures computed here independently;
 * their numbers from the one counter; sent by the job into the sandbox
 * mailbox; served by the API.
 */

const YEAR = Number(zagrebDay().slice(0, 4));
const counter = async () => (await selectOne<{ last_number: number }>('SELECT last_number FROM outgoing_einvoice_counters WHERE year = :year', { year: YEAR }))?.last_number ?? 0;
/** 25 % half-up, computed here without the code under test. */
const vatOf = (cents: number) => Math.floor((cents * 25 + 50) / 100);

type Row = {
  id: string;
  number: string;
  sequence: number;
  purpose: string;
  type_code: string;
  preceding_id: string | null;
  net_amount: string;
  vat_amount: string;
  gross_amount: string;
  issue_date: string;
  due_date: string;
  status: string;
  ubl_xml: string;
  payment_reference: string;
};
const rowsOf = (invoiceId: string) => selectRows<Row>('SELECT * FROM outgoing_einvoices WHERE invoice_id = :invoiceId ORDER BY sequence', { invoiceId });

/** A financing as staff do it (its fee invoice issued with it); names with characters XML must escape. */
async function financedInvoice() {
  const client = await financeableClient({
    name: `Klijent & kći ${newOib()} d.o.o.`,
    email: 'racuni@klijent.hr',
    address: { address: 'Ilica 12', city: 'Zagreb', postalCode: '10000' },
    creditLimit: '1000000.00',
  });
  const invoice = await createInvoice({
    actor: await staff('user'),
    input: {
      clientId: client.id,
      customerId: (await insertCustomer({ name: `Kupac <${newOib()}> d.d.` })).id,
      invoiceNumber: newInvoiceNumber(),
      issueDate: zagrebDay(-5),
      dueDate: zagrebDay(45),
      amount: 12_345.67,
      currency: 'EUR',
      description: 'Isporuka robe',
    },
  });
  await verifyInvoice({ actor: await staff('manager'), id: invoice.id });
  await approveInvoice({ actor: await staff('manager'), id: invoice.id });
  await financeInvoice({ actor: await staff('manager'), id: invoice.id });
  const [first] = await rowsOf(invoice.id);
  expect(first).toMatchObject({ purpose: 'financing_fee', type_code: '380', preceding_id: null });
  return { invoice, first };
}

const settle = (invoiceId: string, netCents: number, options: { reason?: string; actorId?: string } = {}) =>
  inTransaction((transaction) =>
    issueFeeSettlementDocument(invoiceId, { netCents, reason: options.reason ?? 'Konačni obračun naknade na stvarne dane.', actorId: options.actorId }, transaction),
  );

/** Every amount element of a UBL document, as written. */
const amountsOf = (xml: string) => [...xml.matchAll(/<cbc:(\w+Amount) currencyID="EUR">([^<]*)</g)].map(([, tag, value]) => [tag, value]);

describe('the completing fee invoice', () => {
  it('invoices the difference (net + 25 % VAT) as a 380 invoice referring to the fee invoice, numbered next, queued after commit', async () => {
    const { invoice, first } = await financedInvoice();
    const manager = await staff('manager');
    const before = await counter();
    // 12.34 × 25 % = 3.085 → 3.09 half-up.
    const issued = await settle(invoice.id, 1234, { actorId: manager.id, reason: 'Naplata 20 dana nakon dospijeća & kamate.' });
    expect(issued).toEqual({
      id: expect.any(String),
      number: `FF-${YEAR}-${String(before + 1).padStart(6, '0')}`,
      netCents: 1234,
      vatCents: 309,
      grossCents: 1543,
      typeCode: '380',
    });
    expect(vatOf(1234)).toBe(309);

    const [, row] = await rowsOf(invoice.id);
    expect(row).toMatchObject({
      id: issued!.id,
      sequence: before + 1,
      purpose: 'fee_completion',
      type_code: '380',
      preceding_id: first.id,
      net_amount: '12.34',
      vat_amount: '3.09',
      gross_amount: '15.43',
      issue_date: zagrebDay(),
      due_date: zagrebDay(15),
      status: 'pending',
      payment_reference: `HR00 ${YEAR}-${String(before + 1).padStart(6, '0')}`,
    });
    const xml = row.ubl_xml;
    expect(validateEn16931(xml)).toEqual([]);
    expect(xml).toContain('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"');
    expect(xml).toContain('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>');
    // BT-25 and BT-26: the fee invoice of the financing.
    expect(xml).toMatch(
      new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${first.number}</cbc:ID>\\s*<cbc:IssueDate>${first.issue_date}</cbc:IssueDate>`),
    );
    // The note says what it completes, and why (escaped).
    expect(xml).toMatch(new RegExp(`<cbc:Note>Dopunski račun uz račun ${first.number} od [^<]*financiranog računa ${invoice.invoiceNumber}[^<]*</cbc:Note>`));
    expect(xml).toContain('<cbc:Note>Naplata 20 dana nakon dospijeća &amp; kamate.</cbc:Note>');
    expect(xml).toContain(`<cbc:PaymentID>${row.payment_reference}</cbc:PaymentID>`);
    expect(amountsOf(xml)).toEqual([
      ['TaxAmount', '3.09'],
      ['TaxableAmount', '12.34'],
      ['TaxAmount', '3.09'],
      ['LineExtensionAmount', '12.34'],
      ['TaxExclusiveAmount', '12.34'],
      ['TaxInclusiveAmount', '15.43'],
      ['PayableAmount', '15.43'],
      ['LineExtensionAmount', '12.34'],
      ['PriceAmount', '12.34'],
    ]);
    const [activity] = await activityRows('einvoice_issued', row.id);
    expect(activity).toMatchObject({
      user_id: manager.id,
      details: { number: row.number, purpose: 'fee_completion', typeCode: '380', precedingNumber: first.number, netAmount: 12.34, vatAmount: 3.09, grossAmount: 15.43 },
    });
    const job = await selectOne<{ state: string }>(`SELECT state FROM pgboss.job WHERE name = :queue AND data ->> 'einvoiceId' = :id`, { queue: SEND_QUEUE, id: row.id });
    expect(job).toMatchObject({ state: 'created' });
  });
});

describe('the fee credit note', () => {
  it('credits the overcharge as a UBL CreditNote (381) with positive amounts, referring to the fee invoice, asking no payment', async () => {
    const { invoice, first } = await financedInvoice();
    const before = await counter();
    // 10.02 × 25 % = 2.505 → 2.51 half-up.
    const issued = await settle(invoice.id, -1002);
    expect(issued).toEqual({
      id: expect.any(String),
      number: `FF-${YEAR}-${String(before + 1).padStart(6, '0')}`,
      netCents: -1002,
      vatCents: -251,
      grossCents: -1253,
      typeCode: '381',
    });
    expect(vatOf(1002)).toBe(251);

    const [, row] = await rowsOf(invoice.id);
    // The row states the document's (positive) amounts; the type code says it is a credit.
    expect(row).toMatchObject({
      purpose: 'fee_credit',
      type_code: '381',
      preceding_id: first.id,
      net_amount: '10.02',
      vat_amount: '2.51',
      gross_amount: '12.53',
      due_date: zagrebDay(),
    });
    const xml = row.ubl_xml;
    expect(validateEn16931(xml)).toEqual([]);
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toMatch(/<cac:CreditNoteLine>\s*<cbc:ID>1<\/cbc:ID>\s*<cbc:CreditedQuantity unitCode="C62">1<\/cbc:CreditedQuantity>/);
    expect(xml).not.toMatch(/InvoiceLine|InvoicedQuantity|InvoiceTypeCode|<cbc:DueDate>|<cac:PaymentMeans>/);
    expect(xml).toMatch(
      new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${first.number}</cbc:ID>\\s*<cbc:IssueDate>${first.issue_date}</cbc:IssueDate>`),
    );
    expect(xml).toMatch(new RegExp(`<cbc:Note>Odobrenje uz račun ${first.number} od [^<]*</cbc:Note>`));
    // EN 16931: a credit note's amounts are positive.
    expect(amountsOf(xml)).toEqual([
      ['TaxAmount', '2.51'],
      ['TaxableAmount', '10.02'],
      ['TaxAmount', '2.51'],
      ['LineExtensionAmount', '10.02'],
      ['TaxExclusiveAmount', '10.02'],
      ['TaxInclusiveAmount', '12.53'],
      ['PayableAmount', '12.53'],
      ['LineExtensionAmount', '10.02'],
      ['PriceAmount', '10.02'],
    ]);
  });

  it('the rules before sending refuse a credit note that names no invoice', async () => {
    const { invoice } = await financedInvoice();
    await settle(invoice.id, -500);
    const [, row] = await rowsOf(invoice.id);
    const unreferenced = row.ubl_xml.replace(/\s*<cac:BillingReference>[\s\S]*?<\/cac:BillingReference>/, '');
    expect(validateEn16931(unreferenced).map((violation) => violation.rule)).toEqual(['HR-CIUS-CREDIT-NOTE-REF']);
  });
});

describe('numbers and refusals', () => {
  it('numbers every kind from one counter without gaps; a rolled-back settlement gives its number back', async () => {
    const { invoice, first } = await financedInvoice();
    const rolledBack = new Error('settlement refused later');
    await expect(
      inTransaction(async (transaction) => {
        await issueFeeSettlementDocument(invoice.id, { netCents: 700, reason: 'Dopuna.' }, transaction);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await counter()).toBe(first.sequence);
    expect(await rowsOf(invoice.id)).toHaveLength(1);
    await settle(invoice.id, 700);
    await settle(invoice.id, -300);
    const rows = await rowsOf(invoice.id);
    expect(rows.map((row) => [row.sequence, row.purpose])).toEqual([
      [first.sequence, 'financing_fee'],
      [first.sequence + 1, 'fee_completion'],
      [first.sequence + 2, 'fee_credit'],
    ]);
    expect(rows.slice(1).every((row) => row.preceding_id === first.id)).toBe(true);
  });

  it('refuses a credit beyond the net fee invoiced so far (fee invoice + completions − credit notes), drawing no number', async () => {
    const { invoice, first } = await financedInvoice();
    const invoiced = Math.round(Number(first.net_amount) * 100);
    await settle(invoice.id, 100);
    await settle(invoice.id, -(invoiced + 100));
    const before = await counter();
    const refused = await apiFailure(settle(invoice.id, -1));
    expect(refused).toMatchObject({ status: 409, body: { code: 'einvoices.refusals.creditExceedsFee' } });
    expect(refused.body.message).toBe(`Invoice ${invoice.invoiceNumber}: a credit of 0.01 EUR exceeds the net fee invoiced so far (0.00 EUR)`);
    expect(await counter()).toBe(before);
  });

  it('a zero difference writes nothing and draws no number', async () => {
    const { invoice } = await financedInvoice();
    const before = await counter();
    expect(await settle(invoice.id, 0)).toBeNull();
    expect(await counter()).toBe(before);
    expect(await rowsOf(invoice.id)).toHaveLength(1);
  });

  it('refuses an unknown invoice (404), one not financed (409), a financing without its fee invoice (409); a financing before e-invoices has nothing to refer to', async () => {
    expect((await apiFailure(settle('00000000-0000-4000-8000-000000000000', 100))).status).toBe(404);
    const client = await financeableClient();
    const customer = await insertCustomer();
    const pending = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '1000.00', dueDate: zagrebDay(30), status: 'pending' });
    expect((await apiFailure(settle(pending, 100))).status).toBe(409);
    const withoutEInvoice = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '1000.00', dueDate: zagrebDay(30) });
    const refused = await apiFailure(settle(withoutEInvoice, 100));
    expect(refused).toMatchObject({ status: 409, body: { code: 'einvoices.refusals.noFeeInvoice' } });
    const before2026 = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '1000.00', dueDate: '2025-11-30' });
    expect(await settle(before2026, 100)).toBeNull();
    await expect(settle(withoutEInvoice, 10.5)).rejects.toThrow(RangeError);
    await expect(settle(withoutEInvoice, 100, { reason: '  ' })).rejects.toThrow(RangeError);
  });
});

describe('sending and serving both kinds', () => {
  const runJob = async (einvoiceId: string) => {
    const job = (await selectOne<{ id: string; retry_count: number; retry_limit: number }>(
      `SELECT id, retry_count, retry_limit FROM pgboss.job WHERE name = :queue AND data ->> 'einvoiceId' = :einvoiceId ORDER BY created_on DESC LIMIT 1`,
      { queue: SEND_QUEUE, einvoiceId },
    ))!;
    return sendHandler([{ id: job.id, name: SEND_QUEUE, data: { einvoiceId }, retryCount: job.retry_count, retryLimit: job.retry_limit } as PgBoss.JobWithMetadata<unknown>]);
  };

  it('the job delivers a completing invoice and a credit note into the sandbox mailbox; a failed credit note is sent again', async () => {
    await ensureIntegrations();
    await execute(`UPDATE integrations SET is_enabled = true WHERE type = 'einvoicing'`);
    const { invoice } = await financedInvoice();
    const completion = (await settle(invoice.id, 2500))!;
    const credit = (await settle(invoice.id, -1500))!;
    for (const { id } of [completion, credit]) {
      await runJob(id);
      const row = (await selectOne<{ status: string; document_id: string; ubl_xml: string }>('SELECT status, document_id, ubl_xml FROM outgoing_einvoices WHERE id = :id', {
        id,
      }))!;
      expect(row).toMatchObject({ status: 'delivered', document_id: documentIdOf(row.ubl_xml) });
      expect(fs.readFileSync(path.join(mailboxDir('sent'), `${row.document_id}.xml`), 'utf8')).toBe(row.ubl_xml);
    }
    // As if the intermediary had refused it: a manager sends it again, and it goes.
    await execute(`UPDATE outgoing_einvoices SET status = 'failed', error = 'refused' WHERE id = :id`, { id: credit.id });
    expect(await resendEInvoice({ actor: await staff('manager'), id: credit.id })).toMatchObject({ status: 'pending', typeCode: '381', purpose: 'fee_credit' });
    await runJob(credit.id);
    expect(await selectOne('SELECT status FROM outgoing_einvoices WHERE id = :id', { id: credit.id })).toEqual({ status: 'delivered' });
  });

  it('GET /api/einvoices gives purpose, typeCode and precedingNumber; the UBL of a credit note is CreditNote XML; the invoice page lists all three', async () => {
    const { invoice, first } = await financedInvoice();
    const completion = (await settle(invoice.id, 999))!;
    const credit = (await settle(invoice.id, -400))!;
    const cookie = await signedInCookie((await staff('user')).id);
    const response = await listLoader({ request: getRequest(`/api/einvoices?q=${invoice.invoiceNumber}`, cookie), params: {}, context: {} });
    expect(response.headers.get('X-Total-Count')).toBe('3');
    const items = (await response.json()) as Array<Record<string, unknown>>;
    expect(items.map((item) => [item.number, item.purpose, item.typeCode, item.precedingNumber, item.grossAmount])).toEqual([
      [credit.number, 'fee_credit', '381', first.number, 5],
      [completion.number, 'fee_completion', '380', first.number, 12.49],
      [first.number, 'financing_fee', '380', null, Number(first.gross_amount)],
    ]);
    const ubl = await ublLoader({ request: getRequest(`/api/einvoices/${credit.id}/ubl`, cookie), params: { id: credit.id }, context: {} });
    expect(ubl.headers.get('Content-Disposition')).toBe(`attachment; filename="${credit.number}.xml"`);
    expect(await ubl.text()).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
    expect((await listInvoiceFeeDocuments(invoice.id)).map((document) => [document.number, document.purpose])).toEqual([
      [first.number, 'financing_fee'],
      [completion.number, 'fee_completion'],
      [credit.number, 'fee_credit'],
    ]);
  });
});
