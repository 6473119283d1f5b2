import fs from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiClient, signInAsAdmin } from '../support/api-client.ts';
import { staffSession } from '../support/sessions.ts';
import { ensureFinanceable } from '../support/financing.ts';
import { plainDiscountClient } from '../support/demo-clients.ts';
import { randomOib, zagrebDay } from '../support/e2e-steps.ts';

/**
 * The invoice API end to end (no browser): an admin uploads a client's UBL
 * e-invoice over HTTP, one manager verifies it, another approves and
 * finances it; the advance, the fee and the client's used credit are checked
 * to the cent against figures computed here.
 */
const baseUrl = inject('baseUrl');
const FIXTURE = fs.readFileSync(new URL('../../app/einvoices/fixtures/valid-invoice.xml', import.meta.url), 'utf8');
let admin: ApiClient;

beforeAll(async () => {
  admin = await signInAsAdmin();
});

const manager = async () => (await staffSession(admin, 'manager', { lastName: 'Manager' })).client;

/** Half-up rounding of an exact integer ratio. */
const roundRatio = (numerator: bigint, denominator: bigint) => Number((numerator * 2n + denominator) / (2n * denominator));

describe('invoices over the API', () => {
  it('imports a UBL e-invoice and takes it through verify, approve (four eyes) and finance', async () => {
    // A seeded client with an agreement on the plain discount model, an IBAN and room under its credit limit.
    const { client } = await plainDiscountClient(admin, 20_000);
    const before = (await admin.get(`/api/clients/${client.id}`)).json as unknown as { usedCredit: number; agreement: { advanceRate: number; feeRate: number } };

    const number = `E2E-${Date.now()}/1/1`;
    const buyerOib = randomOib();
    const xml = FIXTURE.replaceAll('47120589305', client.oib)
      .replaceAll('88204135760', buyerOib)
      .replace('R-2026-0142/1/1', number)
      // Issued today and due in 75 days: within every demo agreement's maximum tenor.
      .replace('<cbc:IssueDate>2026-03-02</cbc:IssueDate>', `<cbc:IssueDate>${zagrebDay(0)}</cbc:IssueDate>`)
      .replace('<cbc:DueDate>2026-04-16</cbc:DueDate>', `<cbc:DueDate>${zagrebDay(75)}</cbc:DueDate>`);

    const post = (query: string, body: string) =>
      fetch(`${baseUrl}/api/invoices/import?${query}`, { method: 'POST', headers: { 'Content-Type': 'application/xml', Cookie: admin.cookie }, body });
    // A new buyer needs the caller's consent: 409 with the proposal, nothing stored.
    const proposal = await post(`clientId=${client.id}`, xml);
    expect(proposal.status).toBe(409);
    expect(await proposal.json()).toMatchObject({ proposedCustomer: { oib: buyerOib, companyName: 'Trgovina Jadran d.d.' } });
    // Totals that do not add up are refused naming the rule.
    const broken = await post(`clientId=${client.id}&createCustomer=true`, xml.replace('>8136.94</cbc:PayableAmount>', '>8136.00</cbc:PayableAmount>'));
    expect(broken.status).toBe(400);
    expect((await broken.json()).message).toMatch(/^BR-CO-16: /);

    const imported = await post(`clientId=${client.id}&createCustomer=true`, xml);
    expect(imported.status).toBe(201);
    const invoice = await imported.json();
    expect(invoice).toMatchObject({ invoiceNumber: number, status: 'pending', amount: 8136.94, clientId: client.id, customerName: 'Trgovina Jadran d.d.', customerCreated: true });

    const a = await manager();
    const b = await manager();
    expect((await a.put(`/api/invoices/${invoice.id}/approve`)).status).toBe(409);
    expect((await a.put(`/api/invoices/${invoice.id}/verify`)).json).toMatchObject({ status: 'verified', verificationStatus: 'verified' });
    const own = await a.put(`/api/invoices/${invoice.id}/approve`);
    expect(own.status).toBe(403);
    expect((await b.put(`/api/invoices/${invoice.id}/approve`)).json).toMatchObject({ status: 'approved' });
    // Financing needs an agreement in force and a debtor limit (the new buyer has none).
    await ensureFinanceable(client.id, invoice.customerId);
    const financed = await b.put(`/api/invoices/${invoice.id}/finance`);
    expect(financed.status).toBe(200);

    // 75 days to the due date: three started 30-day periods. Rates in thousandths of a percent, exactly.
    const advanceMilli = BigInt(Math.round(before.agreement.advanceRate * 1000));
    const feeMilli = BigInt(Math.round(before.agreement.feeRate * 1000));
    const advance = roundRatio(813694n * advanceMilli, 100_000n);
    const fee = roundRatio(813694n * feeMilli * 3n, 100_000n);
    expect(financed.json).toMatchObject({ status: 'financed', factorAmount: advance / 100, factorFee: fee / 100 });
    const after = (await admin.get(`/api/clients/${client.id}`)).json as unknown as { usedCredit: number };
    expect(Math.round(after.usedCredit * 100)).toBe(Math.round(before.usedCredit * 100) + advance);

    const detail = (await admin.get(`/api/invoices/${invoice.id}`)).json as unknown as {
      history: Array<{ action: string }>;
      payouts: Array<{ kind: string; amount: number }>;
      documents: Array<{ id: string }>;
    };
    expect(detail.history.map((entry) => entry.action)).toEqual(['invoice_created', 'invoice_verified', 'invoice_approved', 'invoice_financed']);
    expect(detail.payouts).toEqual([expect.objectContaining({ kind: 'advance', amount: advance / 100 })]);
    expect(detail.documents).toHaveLength(1);

    const payable = await admin.get(`/api/invoices/payable?q=${encodeURIComponent(number)}`);
    expect(payable.json).toEqual([expect.objectContaining({ id: invoice.id, invoiceNumber: number, customerName: 'Trgovina Jadran d.d.', amount: 8136.94, currency: 'EUR' })]);
    const list = await admin.get(`/api/invoices?q=${encodeURIComponent(number)}&status=financed`);
    expect(list.headers.get('x-total-count')).toBe('1');
    // Financed cannot be financed again.
    expect((await b.put(`/api/invoices/${invoice.id}/finance`)).status).toBe(409);
  });
});
