import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { execute } from '../db.server.ts';
import { MAX_UBL_BYTES } from './ubl-constants.ts';
import { parseUblInvoice } from './ubl-document.server.ts';
import { matchUblParties } from './ubl-parties.server.ts';
import { einvoiceFixture, mutate } from './test-fixtures.ts';

const VALID = einvoiceFixture('valid-invoice.xml');
const ALLOWANCES = einvoiceFixture('invoice-allowances-charges.xml');

/** The rule texts of a refusal (errors.xml, or the message alone). */
async function refusal(xml: string | Buffer) {
  const failure = await apiFailure((async () => parseUblInvoice(xml))());
  return { status: failure.status, message: failure.body.message, texts: failure.body.errors?.xml ?? [failure.body.message] };
}

describe('a valid Croatian CIUS e-invoice', () => {
  it('reads the invoice terms, lines, parties and payment means', () => {
    const invoice = parseUblInvoice(VALID);
    expect(invoice).toMatchObject({
      customizationId: 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0',
      profileId: 'P1',
      invoiceNumber: 'R-2026-0142/1/1',
      issueDate: '2026-03-02',
      issueTime: '09:41:17',
      dueDate: '2026-04-16',
      currency: 'EUR',
      amount: 813694,
      description: 'Isporuka hrastove građe prema narudžbi 2026-118',
      seller: { name: 'Drvoprerada Zagorje d.o.o.', oib: '47120589305', vatId: 'HR47120589305', endpointScheme: '9934' },
      sellerContact: { oib: '33590277412', name: 'Ivana Horvat' },
      buyer: {
        name: 'Trgovina Jadran d.d.',
        oib: '88204135760',
        address: { street: 'Obala kneza Branimira 7', city: 'Zadar', postalCode: '23000', countryCode: 'HR' },
      },
      paymentMeans: [{ code: '30', iban: 'HR2923600001102345678', paymentId: 'HR01 142-2026', model: 'HR01', reference: '142-2026' }],
      totals: { lineExtension: 652075, taxExclusive: 652075, taxAmount: 161619, taxInclusive: 813694, payable: 813694 },
    });
    expect(invoice.lines).toEqual([
      expect.objectContaining({
        lineNumber: '1',
        quantity: '12.5000',
        unitCode: 'MTQ',
        unitPrice: '480.0000',
        netAmount: 600000,
        vatCategory: 'S',
        vatRate: '25.00',
        vatName: 'HR:PDV25',
        kpdCode: '16.11.12',
      }),
      expect.objectContaining({ lineNumber: '2', quantity: '3.0000', unitPrice: '150.2500', netAmount: 45075, kpdCode: '49.41.19' }),
      expect.objectContaining({ lineNumber: '3', netAmount: 7000, vatRate: '5.00', vatName: 'HR:PDV5' }),
    ]);
    expect(invoice.vatBreakdown).toEqual([
      { category: 'S', rate: '25.00', taxableAmount: 645075, taxAmount: 161269 },
      { category: 'S', rate: '5.00', taxableAmount: 7000, taxAmount: 350 },
    ]);
  });

  it('reads other prefixes, allowances, charges, a base quantity, an exempt line, prepaid and rounding', () => {
    const invoice = parseUblInvoice(Buffer.from(ALLOWANCES, 'utf8'));
    expect(invoice.totals).toEqual({
      lineExtension: 253000,
      allowances: 3000,
      charges: 1000,
      taxExclusive: 251000,
      taxAmount: 54863,
      taxInclusive: 305863,
      prepaid: 50000,
      rounding: 37,
      payable: 255900,
    });
    expect(invoice.amount).toBe(255900);
    expect(invoice.lines.map((line) => [line.netAmount, line.unitPrice])).toEqual([
      [98000, '250.0000'],
      [123450, '1.2345'],
      [31550, '300.0000'],
    ]);
    expect(invoice.paymentMeans[0]).toMatchObject({ iban: 'HR2923600001102345678', model: 'HR00', reference: '143' });
  });

  it('accepts a UTF-8 byte order mark, character references and CDATA', () => {
    const xml = mutate(VALID, '<cbc:Note>Isporuka hrastove građe prema narudžbi 2026-118</cbc:Note>', '<cbc:Note>Drvo &amp; građa &#x2013; <![CDATA[a&b <ok>]]></cbc:Note>');
    const invoice = parseUblInvoice(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml, 'utf8')]));
    expect(invoice.notes).toEqual(['Drvo & građa – a&b <ok>']);
  });
});

describe('safe parsing', () => {
  it('refuses malformed XML with the line and column', async () => {
    const broken = mutate(VALID, '</cbc:IssueDate>', '</cbc:IssueDat>');
    const { status, message } = await refusal(broken);
    expect(status).toBe(400);
    expect(message).toMatch(/^Malformed XML at line 12, column \d+: .*IssueDate/);
  });

  it('refuses a DOCTYPE with an external entity without reading the file', async () => {
    const xxe = mutate(VALID, '<Invoice ', '<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<Invoice ').replace('<cbc:Note>', '<cbc:Note>&xxe;');
    expect(await refusal(xxe)).toMatchObject({ status: 400, message: 'XML with a DOCTYPE/entities is not accepted' });
  });

  it('refuses entity expansion (billion laughs) and a bare ENTITY declaration', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Invoice>&lol2;</Invoice>`;
    expect((await refusal(laughs)).message).toBe('XML with a DOCTYPE/entities is not accepted');
    expect((await refusal(`<!ENTITY x "y"><Invoice/>`)).message).toBe('XML with a DOCTYPE/entities is not accepted');
  });

  it('refuses more than 5 MB with 413, other encodings and an empty body', async () => {
    const large = VALID.replace('</Invoice>', `<!--${'x'.repeat(MAX_UBL_BYTES)}--></Invoice>`);
    expect((await refusal(large)).status).toBe(413);
    expect((await refusal(VALID.replace('encoding="UTF-8"', 'encoding="ISO-8859-2"'))).message).toMatch(/must be UTF-8 encoded/);
    expect((await refusal(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x61, 0x3e]))).message).toMatch(/must be UTF-8 encoded/);
    expect((await refusal('  ')).message).toBe('E-invoice XML is empty');
  });

  it('refuses a control character, whether written as a character reference or raw, naming the reference', async () => {
    for (const note of ['Drvo &#1; građa', 'Drvo &#x1B;[31m građa', 'Drvo &#0; građa', 'Drvo &#xD800; građa', 'Drvo &#x85; građa', 'Drvo \u0007 građa']) {
      const xml = mutate(VALID, '<cbc:Note>Isporuka hrastove građe prema narudžbi 2026-118</cbc:Note>', `<cbc:Note>${note}</cbc:Note>`);
      const failure = await refusal(xml);
      expect(failure.status, note).toBe(400);
      expect(failure.message, note).toMatch(/^XML text contains a control character/);
    }
    const attribute = mutate(VALID, 'schemeID="9934">47120589305', 'schemeID="99&#2;34">47120589305');
    expect((await refusal(attribute)).message).toBe('XML text contains a control character (&#2;)');
    // Tab, line feed and carriage return are text.
    const lines = mutate(VALID, '<cbc:Note>Isporuka hrastove građe prema narudžbi 2026-118</cbc:Note>', '<cbc:Note>a&#9;b&#10;c&#13;d</cbc:Note>');
    expect(parseUblInvoice(lines).notes).toEqual(['a\tb\nc\rd']);
  });

  it('refuses XML nested thousands of levels deep with 400, not a crash', async () => {
    for (const depth of [100, 5_000, 100_000]) {
      const deep = VALID.replace('<cbc:Note>', `${'<cbc:Note>'.repeat(depth)}`).replace('</cbc:Note>', `${'</cbc:Note>'.repeat(depth)}`);
      const failure = await refusal(deep);
      expect(failure.status, String(depth)).toBe(400);
      expect(failure.message, String(depth)).toMatch(/^Malformed XML/);
    }
  });

  it('refuses an empty or out-of-range amount as a rule, not as a crash', async () => {
    const empty = await refusal(mutate(VALID, /<cbc:PayableAmount currencyID="EUR">[^<]*</.exec(VALID)![0], '<cbc:PayableAmount currencyID="EUR"><'));
    expect(empty.status).toBe(400);
    expect(empty.texts).toContain('BR-15: Amount due for payment (BT-115) is missing');
    const huge = await refusal(mutate(VALID, /<cbc:PayableAmount currencyID="EUR">[^<]*</.exec(VALID)![0], '<cbc:PayableAmount currencyID="EUR">10000000000000.00<'));
    expect(huge.texts).toContain("BR-DEC: Amount due for payment (BT-115) '10000000000000.00' is too large");
    const quantity = /<cbc:InvoicedQuantity unitCode="[^"]+">[^<]*</.exec(VALID)![0];
    const bigQuantity = await refusal(mutate(VALID, quantity, quantity.replace(/>[^<]*</, '>99999999999999999999.99<')));
    expect(bigQuantity.status).toBe(400);
    expect(bigQuantity.texts.some((text) => text.startsWith('BR-DEC:'))).toBe(true);
  });

  it('refuses a root that is not a UBL 2.1 Invoice', async () => {
    const creditNote = VALID.replace('<Invoice ', '<CreditNote ').replace('</Invoice>', '</CreditNote>');
    expect((await refusal(creditNote)).message).toMatch(/^UBL 2\.1: the root element must be Invoice/);
    expect((await refusal(VALID.replace('xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"', 'xmlns="urn:example"'))).message).toMatch(/^UBL 2\.1/);
  });
});

/**
 * Each rule: a document that satisfies it (passes) and one that breaks it
 * (refused, naming the rule). The passing side uses the fixture that
 * exercises the rule: the allowances fixture has non-zero allowances,
 * charges, prepaid and rounding amounts, a base quantity and two categories.
 */
const RULES: Array<{ rule: string; passing: string; failing: string }> = [
  {
    rule: 'BR-CO-10',
    passing: VALID,
    failing: mutate(
      VALID,
      '<cbc:LineExtensionAmount currencyID="EUR">6520.75</cbc:LineExtensionAmount>',
      '<cbc:LineExtensionAmount currencyID="EUR">6520.76</cbc:LineExtensionAmount>',
    ),
  },
  {
    rule: 'BR-CO-11',
    passing: ALLOWANCES,
    failing: mutate(
      ALLOWANCES,
      '<b:AllowanceTotalAmount currencyID="EUR">30.00</b:AllowanceTotalAmount>',
      '<b:AllowanceTotalAmount currencyID="EUR">25.00</b:AllowanceTotalAmount>',
    ),
  },
  {
    rule: 'BR-CO-12',
    passing: ALLOWANCES,
    failing: mutate(ALLOWANCES, '<b:ChargeTotalAmount currencyID="EUR">10.00</b:ChargeTotalAmount>', '<b:ChargeTotalAmount currencyID="EUR">12.00</b:ChargeTotalAmount>'),
  },
  {
    rule: 'BR-CO-13',
    passing: ALLOWANCES,
    failing: mutate(ALLOWANCES, '<b:TaxExclusiveAmount currencyID="EUR">2510.00</b:TaxExclusiveAmount>', '<b:TaxExclusiveAmount currencyID="EUR">2530.00</b:TaxExclusiveAmount>'),
  },
  {
    rule: 'BR-CO-14',
    passing: VALID,
    failing: mutate(VALID, '<cbc:TaxAmount currencyID="EUR">1616.19</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">1616.20</cbc:TaxAmount>'),
  },
  {
    rule: 'BR-CO-15',
    passing: VALID,
    failing: mutate(
      VALID,
      '<cbc:TaxInclusiveAmount currencyID="EUR">8136.94</cbc:TaxInclusiveAmount>',
      '<cbc:TaxInclusiveAmount currencyID="EUR">8136.95</cbc:TaxInclusiveAmount>',
    ),
  },
  {
    rule: 'BR-CO-16',
    passing: ALLOWANCES,
    failing: mutate(
      ALLOWANCES,
      '<b:PayableRoundingAmount currencyID="EUR">0.37</b:PayableRoundingAmount>',
      '<b:PayableRoundingAmount currencyID="EUR">0.00</b:PayableRoundingAmount>',
    ),
  },
  { rule: 'BR-CO-17', passing: VALID, failing: mutate(VALID, '<cbc:TaxAmount currencyID="EUR">3.50</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">4.50</cbc:TaxAmount>') },
  {
    rule: 'BR-S-08',
    passing: VALID,
    failing: mutate(VALID, '<cbc:TaxableAmount currencyID="EUR">70.00</cbc:TaxableAmount>', '<cbc:TaxableAmount currencyID="EUR">80.00</cbc:TaxableAmount>'),
  },
  {
    rule: 'BR-E-08',
    passing: ALLOWANCES,
    failing: mutate(ALLOWANCES, '<b:TaxableAmount currencyID="EUR">315.50</b:TaxableAmount>', '<b:TaxableAmount currencyID="EUR">300.00</b:TaxableAmount>'),
  },
  {
    rule: 'BR-LINE-NET',
    passing: ALLOWANCES,
    failing: mutate(ALLOWANCES, '<b:PriceAmount currencyID="EUR">12.345</b:PriceAmount>', '<b:PriceAmount currencyID="EUR">12.346</b:PriceAmount>'),
  },
  { rule: 'HR-BR-4', passing: VALID, failing: mutate(VALID, '<cbc:DueDate>2026-04-16</cbc:DueDate>', '') },
  {
    rule: 'BR-DEC',
    passing: VALID,
    failing: mutate(VALID, '<cbc:PayableAmount currencyID="EUR">8136.94</cbc:PayableAmount>', '<cbc:PayableAmount currencyID="EUR">8136.940001</cbc:PayableAmount>'),
  },
  { rule: 'HR-BR-5', passing: VALID, failing: VALID.replace('urn:mfin.gov.hr:cius-2025:1.0', 'urn:example:cius') },
  { rule: 'HR-BR-34', passing: VALID.replace('<cbc:ProfileID>P1<', '<cbc:ProfileID>P12<'), failing: VALID.replace('<cbc:ProfileID>P1<', '<cbc:ProfileID>P13<') },
  { rule: 'HR-BR-34', passing: VALID.replace('<cbc:ProfileID>P1<', '<cbc:ProfileID>P99:Narudžba 7<'), failing: VALID.replace('<cbc:ProfileID>P1<', '<cbc:ProfileID>P99<') },
  { rule: 'HR-BR-2', passing: VALID, failing: mutate(VALID, '<cbc:IssueTime>09:41:17</cbc:IssueTime>', '') },
  {
    rule: 'HR-BR-25',
    passing: VALID,
    failing: mutate(
      VALID,
      '<cbc:ItemClassificationCode listID="CG">49.41.19</cbc:ItemClassificationCode>',
      '<cbc:ItemClassificationCode listID="CPV">49.41.19</cbc:ItemClassificationCode>',
    ),
  },
  {
    rule: 'HR-BR-CL-2',
    passing: VALID,
    failing: mutate(
      VALID,
      '<cbc:ItemClassificationCode listID="CG">49.41.19</cbc:ItemClassificationCode>',
      '<cbc:ItemClassificationCode listID="CG">64.99.19</cbc:ItemClassificationCode>',
    ),
  },
  { rule: 'HR-BR-37', passing: VALID, failing: mutate(VALID, '<cbc:Name>Ivana Horvat</cbc:Name>', '') },
  { rule: 'HR-BR-9', passing: VALID, failing: mutate(VALID, '<cbc:ID>33590277412</cbc:ID>', '<cbc:ID>33590277413</cbc:ID>') },
  { rule: 'HR-BR-7', passing: VALID, failing: mutate(VALID, '<cbc:EndpointID schemeID="9934">47120589305</cbc:EndpointID>', '') },
  { rule: 'HR-BR-10', passing: VALID, failing: mutate(VALID, '<cbc:EndpointID schemeID="9934">88204135760</cbc:EndpointID>', '') },
  { rule: 'HR-BR-S-1', passing: VALID, failing: mutate(VALID, '<cbc:CompanyID>HR88204135760</cbc:CompanyID>', '') },
  { rule: 'BR-42', passing: ALLOWANCES, failing: mutate(ALLOWANCES, '<b:AllowanceChargeReason>Količinski popust</b:AllowanceChargeReason>', '') },
  { rule: 'BR-38', passing: ALLOWANCES, failing: mutate(ALLOWANCES, '<b:AllowanceChargeReason>Ambalaža</b:AllowanceChargeReason>', '') },
  { rule: 'HR-BR-36', passing: ALLOWANCES, failing: mutate(ALLOWANCES, '<b:TaxExemptionReason>Oslobođeno prema čl. 39. st. 1. t. j) Zakona o PDV-u</b:TaxExemptionReason>', '') },
  { rule: 'HR-CIUS seller OIB', passing: VALID, failing: VALID.replaceAll('47120589305', '47120589306') },
  { rule: 'BR-02', passing: VALID, failing: mutate(VALID, '<cbc:ID>R-2026-0142/1/1</cbc:ID>', '') },
  { rule: 'BR-03', passing: VALID, failing: mutate(VALID, '<cbc:IssueDate>2026-03-02</cbc:IssueDate>', '<cbc:IssueDate>2026-02-30</cbc:IssueDate>') },
  { rule: 'BR-05', passing: VALID, failing: mutate(VALID, '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>', '') },
  { rule: 'BR-06', passing: VALID, failing: mutate(VALID, '<cbc:RegistrationName>Drvoprerada Zagorje d.o.o.</cbc:RegistrationName>', '') },
  { rule: 'BR-16', passing: VALID, failing: VALID.replace(/<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, '') },
];

describe('business rules', () => {
  it.each(RULES)('$rule: a document that satisfies it passes', ({ passing }) => {
    expect(() => parseUblInvoice(passing)).not.toThrow();
  });

  it.each(RULES)('$rule: a document that breaks it is refused naming the rule', async ({ rule, failing }) => {
    const { status, texts } = await refusal(failing);
    expect(status).toBe(400);
    expect(texts.some((text: string) => text.startsWith(`${rule}: `))).toBe(true);
  });

  it('explains a total that does not add up with the figures', async () => {
    const { message } = await refusal(RULES.find((entry) => entry.rule === 'BR-CO-15')!.failing);
    expect(message).toBe('BR-CO-15: TaxInclusiveAmount (BT-112) 8136.95 ≠ TaxExclusiveAmount 6520.75 + TaxAmount 1616.19 = 8136.94');
  });
});

describe('matching the parties against the book', () => {
  async function insertClient(oib: string) {
    const { rows } = await execute<{ id: string }>(`INSERT INTO clients (company_name, oib) VALUES ('Drvoprerada Zagorje d.o.o.', :oib) RETURNING id`, { oib });
    return rows[0].id;
  }

  it('refuses a seller that is not the chosen client, naming both OIBs', async () => {
    const otherClient = await insertClient('11111111119');
    const failure = await apiFailure(matchUblParties(parseUblInvoice(VALID), otherClient));
    expect(failure.status).toBe(400);
    expect(failure.body.message).toBe("HR-CIUS seller OIB: Seller OIB 47120589305 is not the client's OIB 11111111119 (Drvoprerada Zagorje d.o.o.)");
    expect((await apiFailure(matchUblParties(parseUblInvoice(VALID), '00000000-0000-4000-8000-000000000009'))).body.errors).toEqual({ clientId: ['Client not found'] });
  });

  it('finds the buyer by OIB or proposes a new customer from the XML', async () => {
    const clientId = await insertClient('47120589305');
    const proposal = await matchUblParties(parseUblInvoice(VALID), clientId);
    expect(proposal.customer).toBeNull();
    expect(proposal.proposedCustomer).toEqual({
      companyName: 'Trgovina Jadran d.d.',
      oib: '88204135760',
      address: 'Obala kneza Branimira 7',
      city: 'Zadar',
      postalCode: '23000',
      country: 'Croatia',
      email: 'racuni@trgovina-jadran.hr',
    });
    const { rows } = await execute<{ id: string }>(`INSERT INTO customers (company_name, oib) VALUES ('Jadran', '88204135760') RETURNING id`);
    const found = await matchUblParties(parseUblInvoice(VALID), clientId);
    expect(found).toMatchObject({ client: { id: clientId }, customer: { id: rows[0].id, accountBlocked: false }, proposedCustomer: null });
  });
});
