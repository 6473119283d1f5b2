import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { getSequelize } from '../../db/connection.ts';
import { selectOne, selectRows } from '../db.server.ts';
import { validateEn16931 } from './en16931-rules.server.ts';
import { E_INVOICING_FROM } from './outgoing.server.ts';
import { parseUblInvoice } from './ubl-document.server.ts';

/**
 * The acceptance: every outgoing e-invoice the demo book produces
 * passes our EN 16931 / HR CIUS rule checks with no violation, and its
 * figures are those of an independent SQL computation from the financed
 * invoice (net = factor fee, VAT = 25 % rounded half-up to the cent).
 */
beforeAll(async () => {
  await seedDemo(getSequelize(), { now: new Date() });
});

interface Row {
  number: string;
  year: number;
  sequence: number;
  ubl_xml: string;
  sha_ok: boolean;
  net_amount: string;
  vat_amount: string;
  gross_amount: string;
  client_oib: string;
  invoice_number: string;
}

describe("the demo book's fee e-invoices", () => {
  // An invoice charged back or written off was financed first: its fee e-invoice stays.
  it('exist for every invoice financed (or since paid, charged back or written off) since e-invoices began, one each, and for none before', async () => {
    const financed = `i.status IN ('financed', 'paid', 'charged_back', 'written_off')`;
    const since = `(i.financed_at AT TIME ZONE 'Europe/Zagreb')::date >= DATE '${E_INVOICING_FROM}'`;
    const missing = await selectRows(
      `SELECT i.invoice_number FROM invoices i
        WHERE ${financed} AND ${since} AND NOT EXISTS (SELECT 1 FROM outgoing_einvoices o WHERE o.invoice_id = i.id)
        UNION ALL
       SELECT i.invoice_number FROM outgoing_einvoices o JOIN invoices i ON i.id = o.invoice_id WHERE NOT ${financed} OR NOT ${since}`,
    );
    expect(missing).toEqual([]);
    expect((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM outgoing_einvoices'))!.n).toBeGreaterThan(100);
  });

  it('all pass every rule check with zero violations', async () => {
    const rows = await selectRows<{ number: string; ubl_xml: string }>('SELECT number, ubl_xml FROM outgoing_einvoices ORDER BY number');
    const violations = rows.flatMap((row) => validateEn16931(row.ubl_xml).map((violation) => `${row.number} ${violation.rule}: ${violation.message}`));
    expect(violations).toEqual([]);
  });

  it('state the figures an independent SQL computation gives, in the row and in the XML', async () => {
    const wrong = await selectRows(
      `SELECT o.number, o.net_amount, o.vat_amount, o.gross_amount, i.factor_fee
         FROM outgoing_einvoices o JOIN invoices i ON i.id = o.invoice_id
        WHERE o.net_amount <> i.factor_fee
           OR o.vat_amount <> round(i.factor_fee * 25 / 100, 2)
           OR o.gross_amount <> i.factor_fee + round(i.factor_fee * 25 / 100, 2)
           OR o.vat_rate <> 25`,
    );
    expect(wrong).toEqual([]);
    const rows = await selectRows<Row>(
      `SELECT o.number, o.year, o.sequence, o.ubl_xml, o.ubl_sha256 = encode(sha256(convert_to(o.ubl_xml, 'UTF8')), 'hex') AS sha_ok,
              o.net_amount, o.vat_amount, o.gross_amount, c.oib AS client_oib, i.invoice_number
         FROM outgoing_einvoices o JOIN invoices i ON i.id = o.invoice_id JOIN clients c ON c.id = o.client_id`,
    );
    const cents = (value: string) => Math.round(Number(value) * 100);
    const mismatches = rows.flatMap((row) => {
      const read = parseUblInvoice(row.ubl_xml);
      const problems: string[] = [];
      if (!row.sha_ok) problems.push('sha256');
      if (read.invoiceNumber !== row.number) problems.push('number');
      if (read.totals.taxExclusive !== cents(row.net_amount) || read.totals.taxAmount !== cents(row.vat_amount) || read.amount !== cents(row.gross_amount)) problems.push('totals');
      if (read.buyer.oib !== row.client_oib) problems.push('buyer');
      if (!read.lines[0]?.description.includes(row.invoice_number)) problems.push('line');
      return problems.map((problem) => `${row.number}: ${problem}`);
    });
    expect(mismatches).toEqual([]);
  });

  it('are numbered per year from 1 without gaps, in the order they were issued', async () => {
    const years = await selectRows<{ year: number; n: number; first: number; last: number; counter: number; ordered: boolean }>(
      `SELECT o.year, count(*)::int AS n, min(o.sequence) AS first, max(o.sequence) AS last, c.last_number AS counter,
              bool_and(o.issued_at >= o.previous_issued_at OR o.previous_issued_at IS NULL) AS ordered
         FROM (SELECT *, lag(issued_at) OVER (PARTITION BY year ORDER BY sequence) AS previous_issued_at FROM outgoing_einvoices) o
         JOIN outgoing_einvoice_counters c ON c.year = o.year
        GROUP BY o.year, c.last_number ORDER BY o.year`,
    );
    expect(years.length).toBeGreaterThan(0);
    for (const year of years) expect(year).toEqual({ year: year.year, n: year.last, first: 1, last: year.last, counter: year.last, ordered: true });
  });

  it("show a sending history: delivered with the intermediary's id, one failed waiting to be sent again", async () => {
    const statuses = await selectRows<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM outgoing_einvoices GROUP BY status ORDER BY status');
    expect(statuses.map((row) => row.status)).toEqual(['delivered', 'failed']);
    expect(statuses.find((row) => row.status === 'failed')!.n).toBe(1);
    const badIds = await selectRows(`SELECT number FROM outgoing_einvoices WHERE status = 'delivered' AND (document_id <> 'EINV-' || left(ubl_sha256, 20) OR sent_at > now())`);
    expect(badIds).toEqual([]);
  });
});
