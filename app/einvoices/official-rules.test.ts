import { beforeAll, describe, expect, it } from 'vitest';
import { getSequelize } from '../../db/connection.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { describeFailures, EXPECTED_WARNINGS, MISSING_TOOLS, validateOfficially, type OfficialVerdict } from '../../tests/support/official-einvoice-rules.ts';
import { inTransaction, selectOne, selectRows } from '../db.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { createInvoice } from '../invoices/invoice-create.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { DEFAULT_FACTOR_KPD_CODE } from './kpd.ts';
import { issueFeeSettlementDocument } from './fee-settlement.server.ts';
import { parseUblInvoice } from './ubl-document.server.ts';
import { createTestUser, financeableClient, insertCustomer, newInvoiceNumber } from '../../tests/factories.ts';
import { einvoiceFixture, mutate } from './test-fixtures.ts';

/**
 * The official rules (vendor/einvoice-rules: UBL 2.1 XSD, EN 16931 and the
 * Croatian CIUS schematrons) judge what FinFlow writes and what it accepts:
 *
 * - every document FinFlow writes: the fee e-invoice of a fresh financing,
 *   the completing fee invoice and the fee credit note (a UBL CreditNote)
 *   of its settlement, and every fee e-invoice of the demo book — no XSD
 *   error, no fatal assertion, only the warnings every Croatian invoice draws;
 * - the intake: examples laid out as the tax administration's own (valid
 *   ones, and ones broken in one place) get the same verdict from our intake
 *   (app/einvoices/ubl-document.server.ts) as from the official rules, and a
 *   refusal names the official rule ids that fail.
 *
 * All documents go through ONE run of the official rules (one JVM).
 */

const BASE = einvoiceFixture('official-structure-invoice.xml');
const VALID_FIXTURE = einvoiceFixture('valid-invoice.xml');

/** Intake examples: what each is, and the official rule ids it breaks (none: it must be accepted). */
const INTAKE_EXAMPLES: Array<{ name: string; xml: string; breaks: string[] }> = [
  { name: 'two standard-rated lines (5 % and 25 %)', xml: BASE, breaks: [] },
  { name: "a process P99 with the buyer's designation", xml: mutate(BASE, '<cbc:ProfileID>P1</cbc:ProfileID>', '<cbc:ProfileID>P99:Narudžba 42</cbc:ProfileID>'), breaks: [] },
  { name: 'the intake fixture (three lines, two rates)', xml: VALID_FIXTURE, breaks: [] },
  {
    name: 'a KPD 2015 code the 2025 list no longer has',
    xml: mutate(
      BASE,
      '<cbc:ItemClassificationCode listID="CG">62.20.20</cbc:ItemClassificationCode>',
      '<cbc:ItemClassificationCode listID="CG">62.02.30</cbc:ItemClassificationCode>',
    ),
    breaks: ['HR-BR-CL-2'],
  },
  {
    name: 'a line classified in another list than KPD',
    xml: mutate(
      BASE,
      '<cbc:ItemClassificationCode listID="CG">10.71.11</cbc:ItemClassificationCode>',
      '<cbc:ItemClassificationCode listID="STI">10.71.11</cbc:ItemClassificationCode>',
    ),
    breaks: ['HR-BR-25'],
  },
  { name: 'no operator', xml: BASE.replace(/\s*<cac:SellerContact>[\s\S]*?<\/cac:SellerContact>/, ''), breaks: ['HR-BR-37', 'HR-BR-9'] },
  { name: 'a bare process P99', xml: mutate(BASE, '<cbc:ProfileID>P1</cbc:ProfileID>', '<cbc:ProfileID>P99</cbc:ProfileID>'), breaks: ['HR-BR-34'] },
  { name: 'no issue time', xml: mutate(BASE, '<cbc:IssueTime>07:15:00</cbc:IssueTime>', ''), breaks: ['HR-BR-2'] },
  {
    name: 'no due date, with payment terms',
    xml: mutate(BASE, '<cbc:DueDate>2026-05-14</cbc:DueDate>', ''),
    breaks: ['HR-BR-4'],
  },
  {
    name: 'no due date and no payment terms',
    xml: mutate(BASE, '<cbc:DueDate>2026-05-14</cbc:DueDate>', '').replace(/\s*<cac:PaymentTerms>[\s\S]*?<\/cac:PaymentTerms>/, ''),
    breaks: ['HR-BR-4'],
  },
  {
    name: 'a total with VAT that does not add up',
    xml: mutate(BASE, '<cbc:TaxInclusiveAmount currencyID="EUR">814.00</cbc:TaxInclusiveAmount>', '<cbc:TaxInclusiveAmount currencyID="EUR">815.00</cbc:TaxInclusiveAmount>'),
    breaks: ['BR-CO-15', 'BR-CO-16'],
  },
  {
    name: 'a VAT breakdown whose tax is not its rate of its base',
    xml: mutate(
      mutate(BASE, '<cbc:TaxAmount currencyID="EUR">9.00</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">10.50</cbc:TaxAmount>'),
      '<cbc:TaxAmount currencyID="EUR">134.00</cbc:TaxAmount>',
      '<cbc:TaxAmount currencyID="EUR">135.50</cbc:TaxAmount>',
    ),
    breaks: ['BR-CO-15', 'BR-CO-17', 'BR-S-09'],
  },
  {
    // The official rule tolerates less than one euro: so does the intake (and reads the figures as written).
    name: 'a VAT breakdown 50 cents off its rate of its base, totals agreeing with it',
    xml: [
      ['<cbc:TaxAmount currencyID="EUR">9.00</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">9.50</cbc:TaxAmount>'],
      ['<cbc:TaxAmount currencyID="EUR">134.00</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">134.50</cbc:TaxAmount>'],
      ['<cbc:TaxInclusiveAmount currencyID="EUR">814.00</cbc:TaxInclusiveAmount>', '<cbc:TaxInclusiveAmount currencyID="EUR">814.50</cbc:TaxInclusiveAmount>'],
      ['<cbc:PayableAmount currencyID="EUR">814.00</cbc:PayableAmount>', '<cbc:PayableAmount currencyID="EUR">814.50</cbc:PayableAmount>'],
    ].reduce((xml, [from, to]) => mutate(xml, from, to), BASE),
    breaks: [],
  },
  {
    name: 'an issue date before e-invoices began (2025)',
    xml: mutate(BASE, '<cbc:IssueDate>2026-04-14</cbc:IssueDate>', '<cbc:IssueDate>2025-12-31</cbc:IssueDate>'),
    breaks: ['HR-BR-40'],
  },
  {
    name: 'a buyer without a VAT identifier',
    xml: BASE.replace(/\s*<cac:PartyTaxScheme>\s*<cbc:CompanyID>HR53180726948[\s\S]*?<\/cac:PartyTaxScheme>/, ''),
    breaks: ['HR-BR-S-1'],
  },
  { name: 'a seller without an electronic address', xml: mutate(BASE, '<cbc:EndpointID schemeID="9934">27901185366</cbc:EndpointID>', ''), breaks: ['HR-BR-7'] },
  { name: 'another specification identifier', xml: BASE.replace('urn:mfin.gov.hr:cius-2025:1.0', 'urn:example:cius'), breaks: ['HR-BR-5'] },
];

/** Our intake's verdict: the rule ids it refuses with, each once, sorted; [] when accepted. */
async function intakeRefusal(xml: string): Promise<string[]> {
  try {
    parseUblInvoice(xml);
    return [];
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    const body = (await error.json()) as { message: string; errors?: { xml?: string[] } };
    const texts = body.errors?.xml ?? [body.message];
    return [...new Set(texts.map((text) => text.slice(0, text.indexOf(': '))))].sort();
  }
}

/** A financing as staff do it: the client's KYC approved, an invoice created, verified and approved by two managers, financed. */
async function freshFinancing(): Promise<{ invoiceId: string; xml: string }> {
  // Names with characters XML must escape.
  const client = await financeableClient({
    name: 'Mlinar & kći d.o.o.',
    email: 'racuni@mlinar.hr',
    address: { address: 'Ilica 12', city: 'Zagreb', postalCode: '10000' },
    creditLimit: '1000000.00',
  });
  const customer = await insertCustomer({ name: 'Kupac "Jug" d.d.' });
  const user = await createTestUser({ role: 'user' });
  const today = new Date().toISOString().slice(0, 10);
  const due = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
  const invoice = await createInvoice({
    actor: { id: user.id, role: user.role },
    input: {
      clientId: client.id,
      customerId: customer.id,
      invoiceNumber: newInvoiceNumber(),
      issueDate: today,
      dueDate: due,
      amount: 18_765.43,
      currency: 'EUR',
      description: 'Isporuka brašna',
    },
  });
  const manager = async () => {
    const row = await createTestUser({ role: 'manager' });
    return { id: row.id, role: row.role };
  };
  await verifyInvoice({ actor: await manager(), id: invoice.id });
  await approveInvoice({ actor: await manager(), id: invoice.id });
  await financeInvoice({ actor: await manager(), id: invoice.id });
  const row = await selectOne<{ ubl_xml: string }>('SELECT ubl_xml FROM outgoing_einvoices WHERE invoice_id = :id', { id: invoice.id });
  if (!row) throw new Error('the financing issued no fee e-invoice');
  return { invoiceId: invoice.id, xml: row.ubl_xml };
}

/** The settlement's document for a difference to the fee invoiced (completion > 0, credit note < 0): its UBL. */
async function settlementDocument(invoiceId: string, netCents: number): Promise<string> {
  const issued = await inTransaction((transaction) =>
    issueFeeSettlementDocument(invoiceId, { netCents, reason: 'Konačni obračun naknade na stvarne dane (čl. 5 ugovora).' }, transaction),
  );
  return (await selectOne<{ ubl_xml: string }>('SELECT ubl_xml FROM outgoing_einvoices WHERE id = :id', { id: issued!.id }))!.ubl_xml;
}

let fresh: OfficialVerdict;
let completion: OfficialVerdict;
let creditNote: OfficialVerdict;
let creditNoteXml: string;
let demo: OfficialVerdict[];
let intake: OfficialVerdict[];
let kpd2015: OfficialVerdict;

beforeAll(async () => {
  await seedDemo(getSequelize(), { now: new Date() });
  const financing = await freshFinancing();
  const completionXml = await settlementDocument(financing.invoiceId, 4321);
  creditNoteXml = await settlementDocument(financing.invoiceId, -1234);
  const demoRows = await selectRows<{ number: string; ubl_xml: string }>('SELECT number, ubl_xml FROM outgoing_einvoices ORDER BY number');
  const verdicts = validateOfficially([
    { name: 'fresh financing', xml: financing.xml },
    { name: 'completing fee invoice', xml: completionXml },
    { name: 'fee credit note', xml: creditNoteXml },
    ...demoRows.map((row) => ({ name: row.number, xml: row.ubl_xml })),
    ...INTAKE_EXAMPLES.map((example) => ({ name: example.name, xml: example.xml })),
    // For 'the official rules themselves' below: in the same Java run, which takes seconds to start.
    { name: 'KPD 2015', xml: mutate(BASE, '>62.20.20<', '>64.99.19<') },
  ]);
  [fresh, completion, creditNote] = verdicts;
  // The demo rows include the fresh ones (they are in the same table): judged once more, harmlessly.
  demo = verdicts.slice(3, 3 + demoRows.length);
  intake = verdicts.slice(3 + demoRows.length, 3 + demoRows.length + INTAKE_EXAMPLES.length);
  kpd2015 = verdicts[verdicts.length - 1];
}, 600_000);

describe('every document FinFlow writes passes the official rules', () => {
  it('the fee e-invoice of a fresh financing: no XSD error, no fatal assertion, KPD 2025 64.92.07', () => {
    expect(describeFailures([fresh])).toEqual([]);
    expect(fresh.valid).toBe(true);
    expect(fresh.findings.map((finding) => finding.id).sort()).toEqual(EXPECTED_WARNINGS);
    expect(DEFAULT_FACTOR_KPD_CODE).toBe('64.92.07');
  });

  it('the completing fee invoice and the fee credit note of its settlement: no XSD error, no fatal assertion', () => {
    expect(describeFailures([completion, creditNote])).toEqual([]);
    expect([completion.valid, creditNote.valid]).toEqual([true, true]);
    expect(completion.findings.map((finding) => finding.id).sort()).toEqual(EXPECTED_WARNINGS);
    // The credit note is judged as one (the CreditNote XSD, the rules' CreditNote contexts), not as an invoice.
    expect(creditNoteXml).toMatch(/<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"[\s\S]*<cbc:CreditNoteTypeCode>381</);
    expect(creditNote.findings.map((finding) => finding.id).sort()).toEqual(EXPECTED_WARNINGS);
  });

  it('every fee e-invoice of the demo book, all of them: no XSD error, no fatal assertion, only the expected warnings', async () => {
    const { n } = (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM outgoing_einvoices'))!;
    expect(demo.length).toBe(n);
    expect(n).toBeGreaterThan(100);
    expect(describeFailures(demo)).toEqual([]);
    const unexpected = demo.flatMap((verdict) => verdict.findings.filter((finding) => !EXPECTED_WARNINGS.includes(finding.id)).map((finding) => `${verdict.name}: ${finding.id}`));
    expect(unexpected).toEqual([]);
  });
});

describe('the intake and the official rules agree', () => {
  it.each(INTAKE_EXAMPLES.map((example, index) => ({ ...example, index })))('$name', async ({ xml, breaks, index }) => {
    const official = intake[index];
    expect(official.xsdErrors).toEqual([]);
    // The official verdict is the one this example was written for …
    expect(official.fatal).toEqual([...breaks].sort());
    // … and our intake comes to the same one, naming the same rules.
    expect(await intakeRefusal(xml)).toEqual(official.fatal);
  });
});

describe('the official rules themselves', () => {
  it('refuse the KPD 2015 code FinFlow used to write (64.99.19), so the check above can fail', () => {
    expect(kpd2015.name).toBe('KPD 2015');
    expect(kpd2015.valid).toBe(false);
    expect(kpd2015.fatal).toEqual(['HR-BR-CL-2']);
  });

  it('without Java, Saxon-HE or xmllint, the check fails saying what to install (it is never skipped)', () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(() => validateOfficially([{ name: 'any', xml: BASE }])).toThrow(MISSING_TOOLS);
    } finally {
      process.env.PATH = path;
    }
  });
});
