import type { FactorParty } from '../einvoices/factor-party.server.ts';
import { hrAmount, hrDay } from '../ledger/statement-documents.server.ts';
import { FONT, renderPdf, tableRow, type PdfColumn, type PdfDocument } from '../pdf/pdf.server.ts';
import { toCents, centsToNumber } from '../utils/money.ts';

/**
 * The notice of assignment (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation),
 * in Croatian: the client (cedent) has assigned its receivables on the debtor
 * to the factor under the agreement; from now on the debtor pays only to the
 * factor's IBAN, quoting each invoice's payment reference; the invoices
 * financed so far in a table. Kept among the debtor's documents and mailed to it.
 */
export interface NoticeParty {
  companyName: string;
  oib: string;
  address: string | null;
  postalCode: string | null;
  city: string | null;
}

export interface NoticeInvoice {
  number: string;
  issueDate: string;
  dueDate: string;
  /** NUMERIC string, EUR. */
  amount: string;
  currency: string;
  paymentReference: string | null;
}

const COLUMNS: readonly PdfColumn[] = [
  { title: 'Broj računa', x: 50, width: 120, align: 'left' },
  { title: 'Datum izdavanja', x: 172, width: 70, align: 'left' },
  { title: 'Dospijeće', x: 244, width: 62, align: 'left' },
  { title: 'Iznos', x: 308, width: 82, align: 'right' },
  { title: 'Model i poziv na broj', x: 400, width: 145, align: 'left' },
];

const addressOf = (party: NoticeParty) => [party.address, [party.postalCode, party.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');

function heading(doc: PdfDocument, text: string) {
  doc.moveDown(0.8).font(FONT.bold).fontSize(11).text(text).font(FONT.regular).fontSize(10).moveDown(0.3);
}

export function noticePdf(input: {
  client: NoticeParty;
  debtor: NoticeParty;
  factor: FactorParty;
  agreementNumber: string;
  /** The business day the notice is dated ('YYYY-MM-DD'). */
  day: string;
  invoices: readonly NoticeInvoice[];
  createdAt?: Date;
}): Promise<Buffer> {
  const { client, debtor, factor } = input;
  const title = 'Obavijest o ustupanju potraživanja';
  return renderPdf({ title, subject: `${title}: ${client.companyName} – ${debtor.companyName}`, createdAt: input.createdAt }, (doc) => {
    doc.font(FONT.bold).fontSize(9).text(factor.name);
    doc.font(FONT.regular).text(`${factor.street}, ${factor.postalCode} ${factor.city}`);
    doc.text(`OIB: ${factor.oib}, IBAN: ${factor.iban}`);
    doc.moveDown(1.2);
    doc.fontSize(10).text('Dužnik:');
    doc.font(FONT.bold).text(debtor.companyName).font(FONT.regular);
    if (addressOf(debtor)) doc.text(addressOf(debtor));
    doc.text(`OIB: ${debtor.oib}`);
    doc.moveDown(0.5).text(`${factor.city}, ${hrDay(input.day)}`, { align: 'right' });
    doc.moveDown(1).font(FONT.bold).fontSize(15).text(title, { align: 'center' });
    doc.font(FONT.regular).fontSize(10).moveDown(0.8);

    doc.text(
      `Obavještavamo vas da je ${client.companyName}, OIB ${client.oib}${addressOf(client) ? `, ${addressOf(client)}` : ''} (ustupitelj), ` +
        `na temelju Ugovora o faktoringu broj ${input.agreementNumber} ustupio društvu ${factor.name}, OIB ${factor.oib} (faktor), ` +
        'svoja novčana potraživanja prema vama iz isporuka robe i usluga, uključujući ona iz računa navedenih u nastavku.',
    );
    doc.moveDown(0.5);
    doc
      .font(FONT.bold)
      .text(`Od primitka ove obavijesti ustupljena potraživanja plaćajte isključivo faktoru, na IBAN ${factor.iban}, s modelom i pozivom na broj navedenim uz svaki račun.`);
    doc.font(FONT.regular).moveDown(0.5);
    doc.text('Plaćanje ustupitelju nakon primitka ove obavijesti ne oslobađa vas obveze prema faktoru. Prigovore na račune istaknite faktoru.');

    heading(doc, 'Ustupljeni računi');
    if (input.invoices.length === 0) {
      doc.text('Do datuma ove obavijesti faktor nije otkupio nijedan račun; poziv na broj za svaki račun dodjeljuje se kad ga faktor otkupi.');
    } else {
      tableRow(
        doc,
        COLUMNS,
        COLUMNS.map((column) => column.title),
        { bold: true },
      );
      for (const invoice of input.invoices) {
        tableRow(doc, COLUMNS, [
          invoice.number,
          hrDay(invoice.issueDate),
          hrDay(invoice.dueDate),
          `${hrAmount(centsToNumber(toCents(invoice.amount)))} ${invoice.currency}`,
          invoice.paymentReference ?? '–',
        ]);
      }
    }

    heading(doc, 'Potvrda dužnika');
    doc.text(
      'Primitak ove obavijesti i iznose računa potvrdite na osobnoj poveznici iz poruke e-pošte kojom vam je obavijest poslana, ' +
        'ili pisanim putem na adresu faktora. Ako račun osporavate, navedite razlog.',
    );
    doc.moveDown(2);
    doc.text(`Za faktora: ${factor.name}`);
    doc.text(`Ustupitelj: ${client.companyName}`);
  });
}
