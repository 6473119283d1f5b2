import type { FactorParty } from '../einvoices/factor-party.server.ts';
import { renderPdf, FONT, type PdfDocument } from '../pdf/pdf.server.ts';
import { formatDate, formatEur } from '../utils/format.ts';
import type { AgreementRow } from './in-force.server.ts';

/**
 * The written factoring agreement (docs/domain-model.md#agreements): every material term of
 * one version, in Croatian, with the parties and signature lines. Written when a
 * version is created or edited and kept among the client's documents.
 */
export interface AgreementParty {
  companyName: string;
  oib: string;
  address: string | null;
  postalCode: string | null;
  city: string | null;
  iban: string | null;
  contactPerson: string | null;
}

const percent = (value: string) => `${Number(value).toLocaleString('hr-HR', { maximumFractionDigits: 4 })} %`;

/** The fee model in words (docs/money.md#fees-that-follow-time). */
export function feeModelInWords(model: AgreementRow['fee_model'], rate: string): string {
  if (model === 'discount_30') return `diskontna naknada ${percent(rate)} za svakih započetih 30 dana, na otvoreni iznos računa`;
  const basis = model === 'interest_360' ? 360 : 365;
  return `kamata ${percent(rate)} godišnje na neotplaćeni predujam, za stvarni broj dana (godina od ${basis} dana)`;
}

function termRows(agreement: AgreementRow): Array<[string, string]> {
  return [
    ['Broj ugovora', agreement.number],
    ['Verzija', String(agreement.version)],
    ['Primjenjuje se od', formatDate(agreement.effective_from)],
    ['Vrijedi od', formatDate(agreement.valid_from)],
    ['Vrijedi do', agreement.valid_until ? formatDate(agreement.valid_until) : 'neodređeno'],
    ['Stopa predujma', `${percent(agreement.advance_rate)} iznosa računa`],
    ['Naknada za faktoring', feeModelInWords(agreement.fee_model, agreement.fee_rate)],
    ['Minimalna naknada po računu', formatEur(agreement.minimum_fee)],
    ['Administrativna naknada po računu', formatEur(agreement.admin_fee)],
    ['Naknada za dokumentaciju (jednokratno)', formatEur(agreement.documentation_fee)],
    ['Regres', agreement.recourse ? `s pravom regresa: neplaćeni račun vraća se klijentu ${agreement.recourse_days} dana nakon dospijeća` : 'bez prava regresa'],
    ['Najdulje razdoblje od izdavanja do dospijeća računa', `${agreement.max_tenor_days} dana`],
    ['Obavijest dužniku o ustupu', agreement.disclosed ? 'otvoreni faktoring (ustup se priopćuje dužniku)' : 'tihi faktoring (ustup se ne priopćuje dužniku)'],
    ['Potvrda dužnika prije provjere računa', agreement.requires_debtor_confirmation ? 'potrebna: račun se provjerava tek kad ga dužnik potvrdi' : 'nije potrebna'],
    ['Limit koncentracije po dužniku', `${percent(agreement.concentration_limit)} otvorenog financiranog iznosa klijenta`],
    ['Prag primjene limita koncentracije', formatEur(agreement.concentration_threshold)],
  ];
}

function heading(doc: PdfDocument, text: string) {
  doc.moveDown(0.8).font(FONT.bold).fontSize(12).text(text).font(FONT.regular).fontSize(10).moveDown(0.3);
}

export function agreementPdf(input: { agreement: AgreementRow; client: AgreementParty; factor: FactorParty; createdAt?: Date }): Promise<Buffer> {
  const { agreement, client, factor } = input;
  const title = `Ugovor o faktoringu ${agreement.number}`;
  return renderPdf({ title, subject: `${title}, verzija ${agreement.version}`, createdAt: input.createdAt }, (doc) => {
    doc.font(FONT.bold).fontSize(16).text(title, { align: 'center' });
    doc
      .font(FONT.regular)
      .fontSize(10)
      .text(`Verzija ${agreement.version}, primjenjuje se od ${formatDate(agreement.effective_from)}`, { align: 'center' });

    heading(doc, 'Ugovorne strane');
    doc.text(`Faktor: ${factor.name}, OIB ${factor.oib}, ${factor.street}, ${factor.postalCode} ${factor.city}, IBAN ${factor.iban}`);
    const address = [client.address, [client.postalCode, client.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
    doc.text(`Klijent: ${client.companyName}, OIB ${client.oib}${address ? `, ${address}` : ''}${client.iban ? `, IBAN ${client.iban}` : ''}`);

    heading(doc, 'Bitni uvjeti');
    for (const [label, value] of termRows(agreement)) doc.text(`${label}: ${value}`);

    heading(doc, 'Odredbe');
    doc.text(
      'Klijent ustupa faktoru novčane tražbine iz isporuka robe i usluga prema dužnicima, a faktor isplaćuje predujam po gornjoj stopi. ' +
        'Naknade se obračunavaju prema gornjim uvjetima; verzija ugovora koja je potpisana i primjenjuje se na dan financiranja vrijedi za to financiranje. ' +
        'Ugovor se sklapa u pisanom obliku sukladno Zakonu o faktoringu.',
    );

    heading(doc, 'Potpisi');
    doc.moveDown(1.5);
    const y = doc.y;
    doc.text('______________________________', 50, y).text(`Za faktora: ${factor.name}`, 50, y + 14);
    doc.text('______________________________', 320, y).text(`Za klijenta: ${client.companyName}`, 320, y + 14);
    if (client.contactPerson) doc.text(client.contactPerson, 320, y + 28);
  });
}
