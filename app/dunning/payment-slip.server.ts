import type bwipjsModule from 'bwip-js/node';
import { lazyRequire } from '../utils/lazy-require.server.ts';

const bwipjs = lazyRequire<typeof bwipjsModule>('bwip-js/node');
import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
import { factorParty } from '../einvoices/factor-party.server.ts';
import { hrAmount, hrDay } from '../ledger/statement-documents.server.ts';
import { openForPaymentSql } from '../payments/open-amount.server.ts';
import { FONT, renderPdf, type PdfDocument } from '../pdf/pdf.server.ts';
import { apiError } from '../utils/api.server.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import type { Client, Customer, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { hub3Bytes, hub3Text, type Hub3Payment } from './hub3.server.ts';
import { DUNNING_ERRORS } from './schemas.ts';

/**
 * The payment slip of a financed invoice (docs/collections.md#the-payment-slip):
 * a PDF in the layout of the Croatian general payment slip HUB-3A — payer the
 * debtor, recipient the factor with its IBAN, the open amount, model HR00 and
 * the number part of the invoice's payment reference — with the HUB3 2D
 * barcode (PDF417) a banking app scans. The barcode is a PNG made by bwip-js
 * and embedded as an image, so the PDF carries exactly the symbol that was
 * encoded.
 */

/** The purpose code (ISO 20022 ExternalPurpose1Code) of a debtor paying an assigned receivable: 'other'. */
export const SLIP_PURPOSE_CODE = 'OTHR';

/** PDF417 as HUB3 asks (docs/collections.md#the-payment-slip): 9 data columns, error correction level 4, rows three modules high. */
const BARCODE = { columns: 9, eclevel: 4, rowmult: 3 } as const;
/** Pixels per module in the embedded PNG (~290 dpi at 58 mm wide), and the quiet zone around it in modules. */
const BARCODE_PIXELS_PER_MODULE = 3;
const BARCODE_QUIET_MODULES = 2;
/** The barcode's width on the slip: the standard's 58 mm. */
const BARCODE_WIDTH_MM = 58;

const MM = 72 / 25.4;

export type SlipInvoiceRow = RowOf<typeof Invoice, 'id' | 'invoice_number' | 'amount' | 'due_date' | 'payment_reference' | 'status' | 'disputed' | 'client_id' | 'customer_id'> & {
  open_amount: string;
  customer_name: RowOf<typeof Customer>['company_name'];
  customer_email: RowOf<typeof Customer>['email'];
  customer_address: RowOf<typeof Customer>['address'];
  customer_postal_code: RowOf<typeof Customer>['postal_code'];
  customer_city: RowOf<typeof Customer>['city'];
  client_name: RowOf<typeof Client>['company_name'];
};

/** The invoice with what its slip and reminders print; `lock` takes the row FOR UPDATE (the dunning job). */
export async function slipInvoice(invoiceId: string, options: { transaction?: Transaction | null; lock?: boolean } = {}): Promise<SlipInvoiceRow | null> {
  return selectOne<SlipInvoiceRow>(
    `SELECT i.id, i.invoice_number, i.amount, i.due_date, i.payment_reference, i.status, i.disputed, i.client_id, i.customer_id,
            ${openForPaymentSql('i')} AS open_amount,
            cu.company_name AS customer_name, cu.email AS customer_email, cu.address AS customer_address,
            cu.postal_code AS customer_postal_code, cu.city AS customer_city, cl.company_name AS client_name
       FROM invoices i JOIN customers cu ON cu.id = i.customer_id JOIN clients cl ON cl.id = i.client_id
      WHERE i.id = :id ${options.lock ? 'FOR UPDATE OF i' : ''}`,
    { id: invoiceId },
    { transaction: options.transaction },
  );
}

/** 'HR00 2026-7-000042' → model 'HR00', reference '2026-7-000042'. */
export function splitPaymentReference(paymentReference: string): { model: string; reference: string } {
  const [model, ...rest] = paymentReference.split(' ');
  return { model, reference: rest.join(' ') };
}

/** The HUB3 payment of an invoice's slip: the debtor pays the factor the open amount. 409 without a payment reference. */
export function slipPayment(invoice: SlipInvoiceRow): Hub3Payment {
  if (!invoice.payment_reference) throw apiError(409, DUNNING_ERRORS.noPaymentReference, { params: { number: invoice.invoice_number } });
  const factor = factorParty();
  const { model, reference } = splitPaymentReference(invoice.payment_reference);
  return {
    amountCents: toCents(invoice.open_amount),
    payer: {
      name: invoice.customer_name,
      street: invoice.customer_address ?? '',
      place: [invoice.customer_postal_code, invoice.customer_city].filter(Boolean).join(' '),
    },
    recipient: { name: factor.name, street: factor.street, place: `${factor.postalCode} ${factor.city}` },
    iban: factor.iban,
    model,
    reference,
    purposeCode: SLIP_PURPOSE_CODE,
    description: `Plaćanje fakture ${invoice.invoice_number}`,
  };
}

/** The PDF417 symbol of a HUB3 payment as a PNG (white background, black modules). */
export async function hub3BarcodePng(payment: Hub3Payment): Promise<Buffer> {
  const bytes = hub3Bytes(hub3Text(payment));
  return bwipjs().toBuffer({
    bcid: 'pdf417',
    // One character per byte: bwip-js would otherwise write the text as UTF-8.
    text: String.fromCharCode(...bytes),
    binarytext: true,
    ...BARCODE,
    scale: BARCODE_PIXELS_PER_MODULE,
    paddingwidth: BARCODE_QUIET_MODULES,
    paddingheight: BARCODE_QUIET_MODULES,
    backgroundcolor: 'FFFFFF',
  });
}

export function slipFileName(invoiceNumber: string): string {
  return `uplatnica-${invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 200)}.pdf`;
}

/** One labelled box of the slip: a small label above the value, a thin frame around both. */
function box(doc: PdfDocument, x: number, y: number, width: number, height: number, label: string, lines: string[], options: { size?: number } = {}) {
  doc.lineWidth(0.5).rect(x, y, width, height).stroke('#555555');
  doc
    .font(FONT.regular)
    .fontSize(6)
    .fillColor('#555555')
    .text(label, x + 3, y + 2, { width: width - 6, lineBreak: false });
  doc
    .font(FONT.bold)
    .fontSize(options.size ?? 9)
    .fillColor('#000000');
  lines.forEach((line, index) => doc.text(line, x + 3, y + 11 + index * ((options.size ?? 9) + 2), { width: width - 6, lineBreak: false, ellipsis: true }));
}

/**
 * The slip as a PDF: an explanation for the debtor at the top of an A4 page and the HUB-3A form (210 × 102 mm) at the
 * bottom, with the barcode in the form's lower left corner where banking apps look for it. `createdAt` fixes the
 * file's date (the demo book's bytes stay the same).
 */
export async function renderPaymentSlip(invoice: SlipInvoiceRow, options: { createdAt?: Date } = {}): Promise<Buffer> {
  const payment = slipPayment(invoice);
  const png = await hub3BarcodePng(payment);
  const factor = factorParty();
  const amount = hrAmount(centsToNumber(payment.amountCents));
  const reference = `${payment.model} ${payment.reference}`;
  return renderPdf({ title: `Uplatnica ${invoice.invoice_number}`, subject: 'Nalog za plaćanje (HUB-3A)', createdAt: options.createdAt }, (doc) => {
    doc.font(FONT.bold).fontSize(9).text(factor.name);
    doc.font(FONT.regular).text(`${factor.street}, ${factor.postalCode} ${factor.city}`);
    doc.text(`OIB: ${factor.oib}, IBAN: ${factor.iban}`);
    doc.moveDown(1.5);
    doc.font(FONT.bold).fontSize(14).text(`Uplatnica za fakturu ${invoice.invoice_number}`);
    doc.font(FONT.regular).fontSize(10).moveDown(0.5);
    doc.text(`Dužnik: ${invoice.customer_name}`);
    doc.text(`Izdavatelj fakture: ${invoice.client_name}`);
    doc.text(`Dospijeće: ${hrDay(invoice.due_date)}`);
    doc.text(`Iznos za plaćanje: ${amount} EUR`);
    doc.text(`IBAN primatelja: ${factor.iban}`);
    doc.text(`Model i poziv na broj: ${reference}`);
    doc.moveDown(0.8);
    doc.text(
      `Potraživanje po ovoj fakturi ustupljeno je društvu ${factor.name}. Platite isključivo na gornji IBAN s navedenim pozivom na broj, ` +
        'ili skenirajte 2D kod na uplatnici aplikacijom mobilnog bankarstva.',
      { width: doc.page.width - 100 },
    );

    // The form: 210 × 102 mm at the bottom of the page, the payer's side on the left, the order on the right.
    const left = 0;
    const top = doc.page.height - 102 * MM;
    const width = doc.page.width;
    doc.lineWidth(0.8).moveTo(left, top).lineTo(width, top).dash(3, { space: 3 }).stroke('#999999').undash();
    const split = left + 75 * MM;
    const pad = 4 * MM;
    doc
      .font(FONT.bold)
      .fontSize(8)
      .fillColor('#000000')
      .text('NALOG ZA PLAĆANJE', split + pad, top + pad, { lineBreak: false });
    doc
      .font(FONT.regular)
      .fontSize(7)
      .text('HUB-3A', width - pad - 30, top + pad, { lineBreak: false });

    const column = split - left - 2 * pad;
    box(doc, left + pad, top + 12 * MM, column, 17 * MM, 'PLATITELJ (naziv/ime i adresa)', [payment.payer.name, payment.payer.street, payment.payer.place], { size: 8 });
    box(doc, left + pad, top + 31 * MM, column, 17 * MM, 'PRIMATELJ (naziv/ime i adresa)', [payment.recipient.name, payment.recipient.street, payment.recipient.place], {
      size: 8,
    });
    // The barcode: 58 mm wide, its height following the symbol, in the lower left corner.
    const barcodeWidth = BARCODE_WIDTH_MM * MM;
    doc.image(png, left + pad, top + 51 * MM, { width: barcodeWidth });

    const right = split + pad;
    const rightWidth = width - right - pad;
    const third = rightWidth / 3;
    box(doc, right, top + 12 * MM, third - 2, 9 * MM, 'Valuta', ['EUR']);
    box(doc, right + third, top + 12 * MM, 2 * third, 9 * MM, 'Iznos', [amount]);
    box(doc, right, top + 23 * MM, rightWidth, 9 * MM, 'IBAN ili broj računa platitelja', ['']);
    box(doc, right, top + 34 * MM, rightWidth, 9 * MM, 'IBAN ili broj računa primatelja', [payment.iban]);
    box(doc, right, top + 45 * MM, third - 2, 9 * MM, 'Model', [payment.model]);
    box(doc, right + third, top + 45 * MM, 2 * third, 9 * MM, 'Poziv na broj primatelja', [payment.reference]);
    box(doc, right, top + 56 * MM, third - 2, 9 * MM, 'Šifra namjene', [payment.purposeCode]);
    box(doc, right + third, top + 56 * MM, 2 * third, 9 * MM, 'Datum izvršenja', ['']);
    box(doc, right, top + 67 * MM, rightWidth, 13 * MM, 'Opis plaćanja', [payment.description]);
  });
}
