import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { importUblInvoice } from './ubl-import.server.ts';
import { BUYER_OIB, FIXTURE, SELLER_OIB, storedCounts } from './test-fixtures.server.ts';
import { insertCustomer, sellerClient, staff } from '../../tests/factories.ts';

describe('importing e-invoices: refusals store nothing', () => {
  async function setup() {
    const user = await staff('user');
    const { id: clientId } = await sellerClient();
    return { user, clientId };
  }
  const cases: Array<[string, (xml: string) => string, RegExp]> = [
    ['malformed XML', (xml) => xml.replace('</cbc:ID>', '</cbc:Id>'), /^Malformed XML at line \d+, column \d+/],
    [
      'an external entity',
      (xml) => xml.replace('<Invoice ', '<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<Invoice ').replace('<cbc:Note>', '<cbc:Note>&xxe;'),
      /^XML with a DOCTYPE\/entities is not accepted$/,
    ],
    ['totals that do not add up', (xml) => xml.replace('<cbc:PayableAmount currencyID="EUR">8136.94<', '<cbc:PayableAmount currencyID="EUR">9136.94<'), /^BR-CO-16: /],
    ['a seller that is not the client', (xml) => xml.replaceAll(SELLER_OIB, '11111111119'), /^HR-CIUS seller OIB: Seller OIB 11111111119 is not the client's OIB 47120589305/],
  ];

  it.each(cases)('%s', async (_name, breakIt, message) => {
    const { user, clientId } = await setup();
    const before = await storedCounts();
    const failure = await apiFailure(importUblInvoice({ actor: user, clientId, xml: breakIt(FIXTURE), createCustomer: true }));
    expect(failure.status).toBe(400);
    expect(failure.body.message).toMatch(message);
    expect(await storedCounts()).toEqual(before);
  });

  it('a new buyer without createCustomer is 409 with the proposal; with it the customer is created', async () => {
    const { user, clientId } = await setup();
    const before = await storedCounts();
    const failure = await apiFailure(importUblInvoice({ actor: user, clientId, xml: FIXTURE }));
    expect(failure.status).toBe(409);
    expect(failure.body).toMatchObject({ proposedCustomer: { companyName: 'Trgovina Jadran d.d.', oib: BUYER_OIB, city: 'Zadar' } });
    expect(await storedCounts()).toEqual(before);
    const { id: existing } = await insertCustomer({ oib: BUYER_OIB, name: 'Jadran d.d.' });
    const imported = await importUblInvoice({ actor: user, clientId, xml: FIXTURE });
    expect(imported).toMatchObject({ customerId: existing, customerName: 'Jadran d.d.', customerCreated: false });
    // The same e-invoice twice: its number is taken for the client.
    const again = await apiFailure(importUblInvoice({ actor: user, clientId, xml: FIXTURE }));
    expect(again).toMatchObject({ status: 409, body: { errors: { invoiceNumber: ['An invoice with this number already exists for this client'] } } });
  });
});
