import { factorParty } from '../einvoices/factor-party.server.ts';
import { spreadsheetText } from '../exports/cell-text.ts';
import { FONT, renderPdf, tableRow, type PdfColumn, type PdfDocument } from '../pdf/pdf.server.ts';
import type { LedgerKind } from '../../db/models/enums.ts';
import type { LedgerEntryDto, StatementDto } from './statement.server.ts';

/**
 * The statement of account as a file (docs/money.md#the-clients-account), in
 * Croatian: a PDF for the client and a CSV for a spreadsheet. Both list the
 * same rows — the balance brought forward, each movement with its running
 * balance, the totals and the closing balance — from one StatementDto.
 */

/** The kinds as a Croatian statement names them (the same words as app/locales/hr/ledger.json). */
export const KIND_LABELS_HR: Record<LedgerKind, string> = {
  advance: 'Predujam',
  fee: 'Naknada',
  fee_vat: 'PDV na naknadu',
  collection: 'Naplata',
  reserve_release: 'Isplata rezerve',
  chargeback: 'Regres',
  write_off: 'Otpis',
  adjustment: 'Ispravak',
};

const HR_AMOUNT = new Intl.NumberFormat('hr-HR', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

/** '1.234,56' (hr-HR, two decimals, no currency sign); a negative one with '-', not the U+2212 Intl writes, so it copies out as a number. */
export function hrAmount(eur: number): string {
  return HR_AMOUNT.format(eur).replace('\u2212', '-');
}

/** The CSV's amount: a decimal comma and no grouping ('-1234,56'), so a Croatian spreadsheet reads a number it can sum. */
function csvAmount(eur: number | null): string {
  return eur === null ? '' : eur.toFixed(2).replace('.', ',');
}

/** '27.11.2026.' from '2026-11-27'. */
export function hrDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}.${month}.${year}.`;
}

/** What a reader looks the movement up by: the fee document's number, the invoice's number, or the adjustment's reason. */
export function movementReference(entry: LedgerEntryDto): string {
  if (entry.kind === 'adjustment') return entry.adjustmentReason ?? entry.description;
  if (entry.einvoiceNumber) return entry.invoiceNumber ? `${entry.einvoiceNumber} (${entry.invoiceNumber})` : entry.einvoiceNumber;
  return entry.invoiceNumber ?? entry.description;
}

export function statementFileName(statement: StatementDto, extension: 'pdf' | 'csv'): string {
  return `izvadak-${statement.client.oib}-${statement.from}-${statement.to}.${extension}`;
}

// ---- CSV ----------------------------------------------------------------------

/** The separator: ';', which Croatian Excel splits on (its list separator; the decimal comma takes ','). */
export const CSV_SEPARATOR = ';';

function csvField(value: string): string {
  const text = spreadsheetText(value);
  return /[";\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvRecord = (values: string[]) => `${values.map(csvField).join(CSV_SEPARATOR)}\r\n`;

/** RFC 4180 with ';', CRLF, UTF-8 with a BOM (so Excel reads č ć đ). */
export function statementCsv(statement: StatementDto): string {
  const lines = [
    csvRecord(['Datum', 'Vrsta', 'Referenca', 'Duguje', 'Potražuje', 'Saldo']),
    csvRecord([hrDay(statement.from), 'Preneseni saldo', '', '', '', csvAmount(statement.broughtForward)]),
    ...statement.movements.map((entry) =>
      csvRecord([hrDay(entry.bookedOn), KIND_LABELS_HR[entry.kind], movementReference(entry), csvAmount(entry.debit), csvAmount(entry.credit), csvAmount(entry.balance)]),
    ),
    csvRecord([hrDay(statement.to), 'Ukupno i završni saldo', '', csvAmount(statement.totalDebit), csvAmount(statement.totalCredit), csvAmount(statement.closing)]),
  ];
  return `\uFEFF${lines.join('')}`;
}

// ---- PDF ----------------------------------------------------------------------

const COLUMNS: readonly PdfColumn[] = [
  { title: 'Datum', x: 50, width: 62, align: 'left' },
  { title: 'Vrsta', x: 114, width: 78, align: 'left' },
  { title: 'Referenca', x: 194, width: 130, align: 'left' },
  { title: 'Duguje', x: 326, width: 70, align: 'right' },
  { title: 'Potražuje', x: 398, width: 70, align: 'right' },
  { title: 'Saldo', x: 470, width: 75, align: 'right' },
];

function row(doc: PdfDocument, cells: string[], options: { bold?: boolean } = {}) {
  tableRow(doc, COLUMNS, cells, options);
}

/** The statement as an A4 PDF: the factor, the client with its OIB, the period, the movements and the balances. */
export function statementPdf(statement: StatementDto, options: { createdAt?: Date } = {}): Promise<Buffer> {
  const factor = factorParty();
  return renderPdf({ title: `Izvadak otvorenih stavki ${statement.client.companyName}`, subject: 'Izvadak računa klijenta', createdAt: options.createdAt }, (doc) => {
    doc.font(FONT.bold).fontSize(9).text(factor.name);
    doc.font(FONT.regular).text(`${factor.street}, ${factor.postalCode} ${factor.city}`);
    doc.text(`OIB: ${factor.oib}, IBAN: ${factor.iban}`);
    doc.moveDown(1.5);
    doc.font(FONT.bold).fontSize(14).text('Izvadak računa klijenta');
    doc.font(FONT.regular).fontSize(9).moveDown(0.5);
    doc.text(`Klijent: ${statement.client.companyName}`);
    doc.text(`OIB klijenta: ${statement.client.oib}`);
    if (statement.client.address) doc.text(`Adresa: ${statement.client.address}`);
    doc.text(`Razdoblje: ${hrDay(statement.from)} – ${hrDay(statement.to)}`);
    doc.text('Iznosi u EUR. Duguje: klijent duguje faktoru; potražuje: faktor duguje klijentu.');
    doc.moveDown(1);
    doc.font(FONT.bold).text(`Preneseni saldo: ${hrAmount(statement.broughtForward)}`);
    doc.moveDown(0.5);
    row(
      doc,
      COLUMNS.map((column) => column.title),
      { bold: true },
    );
    for (const entry of statement.movements) {
      row(doc, [
        hrDay(entry.bookedOn),
        KIND_LABELS_HR[entry.kind],
        movementReference(entry),
        entry.debit === null ? '' : hrAmount(entry.debit),
        entry.credit === null ? '' : hrAmount(entry.credit),
        hrAmount(entry.balance),
      ]);
    }
    if (statement.movements.length === 0) row(doc, ['', 'Nema promjena u razdoblju.', '', '', '', '']);
    row(doc, ['', 'Ukupno', '', hrAmount(statement.totalDebit), hrAmount(statement.totalCredit), ''], { bold: true });
    doc.moveDown(1);
    doc
      .font(FONT.regular)
      .fontSize(9)
      .text(`Ukupno duguje: ${hrAmount(statement.totalDebit)}`, 50);
    doc.text(`Ukupno potražuje: ${hrAmount(statement.totalCredit)}`);
    doc.font(FONT.bold).text(`Završni saldo: ${hrAmount(statement.closing)}`);
  });
}
