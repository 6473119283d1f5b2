import { randomUUID } from 'node:crypto';
import { DAY, MINUTE, type Row, date, money } from './plumbing.ts';
import { minimalPdf } from './pdf.ts';
import type { Book, ClientInfo, Context, CustomerInfo, InvoiceInfo } from './context.ts';

// ---- Documents (with real PDF files) ------------------------------------------------

interface Documents {
  rows: Row[];
  files: Book['files'];
}

// [kyc_type, document type (docs/domain-model.md), title]
const KYC_DOCUMENTS: ReadonlyArray<readonly [string, string, string]> = [
  ['company_registration', 'kyc_document', 'Izvadak iz sudskog registra'],
  ['tax_certificate', 'kyc_document', 'Potvrda Porezne uprave o nepostojanju duga'],
  ['bank_statement', 'bank_statement', 'Izvod banke za zadnja 3 mjeseca'],
  ['financial_statements', 'financial_statement', 'Godišnji financijski izvještaj'],
  ['director_id', 'id_document', 'Osobna iskaznica direktora'],
];

export function buildDocuments(ctx: Context, clients: ClientInfo[], customers: CustomerInfo[], invoices: InvoiceInfo[]): Documents {
  const { random, clock } = ctx;
  const documents: Documents = { rows: [], files: [] };
  const add = (doc: {
    name: string;
    type: string;
    kycType?: string;
    entity?: ['client' | 'customer' | 'invoice', string];
    about: string;
    at: number;
    uploadedBy: string | null;
    signature?: 'pending' | 'signed' | 'rejected';
  }) => {
    const id = randomUUID();
    const signer = doc.signature === 'signed' ? ctx.decider() : undefined;
    const signedAt = signer ? clock.past(doc.at + random.int(1, 10) * DAY) : undefined;
    const row: Row = {
      id,
      name: doc.name,
      type: doc.type,
      kyc_type: doc.kycType ?? null,
      mime_type: 'application/pdf',
      entity_type: doc.entity?.[0] ?? null,
      entity_id: doc.entity?.[1] ?? null,
      uploaded_by: doc.uploadedBy,
      signature_required: doc.signature !== undefined,
      signature_status: doc.signature ?? null,
      signed_at: signedAt === undefined ? null : date(signedAt),
      signed_by: signer?.id ?? null,
      created_at: date(doc.at),
      updated_at: date(signedAt ?? doc.at),
    };
    documents.rows.push(row);
    // storage_key, checksum and size are filled in when seedDemo stores the file.
    documents.files.push({
      bytes: minimalPdf(doc.name.replace(/\.pdf$/, ''), [doc.about, 'FinFlow - demo dokument']),
      row,
    });
    ctx.event(doc.at, 'document_uploaded', 'document', id, doc.uploadedBy, { name: doc.name, type: doc.type });
    if (signer) ctx.event(signedAt!, 'document_signed', 'document', id, signer.id, { name: doc.name });
    return id;
  };

  // KYC files of the applicants and of the newest clients (the last applicant still misses its bank statement).
  const pending = clients.filter((client) => client.status === 'pending');
  for (const client of [...pending, ...newestActive(clients)]) {
    KYC_DOCUMENTS.forEach(([kycType, type, title], index) => {
      if (client === pending[4] && kycType === 'bank_statement') return;
      add({
        name: `${title} – ${client.companyName}.pdf`,
        type,
        kycType,
        entity: ['client', client.id],
        about: `${client.companyName}, OIB ${client.oib}`,
        at: clock.past(client.createdAt + index * MINUTE),
        uploadedBy: client.row.created_by as string | null,
      });
    });
  }
  // Factoring agreements, signed electronically (a few still waiting, one refused).
  const active = clients.filter((client) => client.status === 'active');
  random
    .shuffle(active)
    .slice(0, 16)
    .forEach((client, index) => {
      const [agreement] = client.agreements;
      const id = add({
        name: `Ugovor o faktoringu ${agreement.number} – ${client.companyName}.pdf`,
        type: 'contract',
        entity: ['client', client.id],
        about: `Ugovor o faktoringu, regres: ${agreement.recourse ? 'da' : 'ne'}, predujam ${agreement.advanceRate} %`,
        at: clock.past(client.createdAt + DAY),
        uploadedBy: ctx.decider().id,
        signature: index < 12 ? 'signed' : index < 15 ? 'pending' : 'rejected',
      });
      // The signed file is version 1's document (app/agreements/agreements.server.ts keeps it in agreements.document_id).
      if (index < 12) agreement.row.document_id = id;
    });
  for (const invoice of random.shuffle(invoices.filter((candidate) => candidate.status !== 'rejected')).slice(0, 20)) {
    add({
      name: `Faktura ${invoice.number} – ${invoice.client.companyName}.pdf`,
      type: 'invoice',
      entity: ['invoice', invoice.id],
      about: `Kupac: ${invoice.customer.companyName}, iznos ${money(invoice.amount)} EUR, dospijeće ${invoice.dueDay}`,
      at: invoice.createdAt,
      uploadedBy: invoice.row.created_by as string,
    });
  }
  // Assignment notices the customer must countersign before financing.
  for (const invoice of invoices.filter((candidate) => candidate.status === 'approved').slice(0, 4)) {
    add({
      name: `Obavijest o cesiji ${invoice.number} – ${invoice.customer.companyName}.pdf`,
      type: 'contract',
      entity: ['invoice', invoice.id],
      about: `Ustup potraživanja ${invoice.client.companyName} prema ${invoice.customer.companyName}`,
      at: clock.past(invoice.createdAt + DAY),
      uploadedBy: ctx.anyone().id,
      signature: 'pending',
    });
  }
  for (const customer of random.shuffle(customers).slice(0, 6)) {
    add({
      name: `GFI ${new Date(clock.now).getUTCFullYear() - 1} – ${customer.companyName}.pdf`,
      type: 'financial_statement',
      entity: ['customer', customer.id],
      about: `Godišnji financijski izvještaj, OIB ${customer.oib}`,
      at: clock.at(random.int(5, 120), random),
      uploadedBy: ctx.anyone().id,
    });
  }
  for (const [name, type] of [
    ['Opći uvjeti poslovanja – faktoring.pdf', 'contract'],
    ['Cjenik usluga faktoringa.pdf', 'contract'],
    ['Politika sprječavanja pranja novca.pdf', 'kyc_document'],
  ] as const) {
    add({
      name,
      type,
      about: 'Interni dokument',
      at: clock.at(random.int(1, 300), random),
      uploadedBy: ctx.decider().id,
    });
  }
  return documents;
}

/** The six newest active clients: they went through the onboarding workflow. */
export function newestActive(clients: ClientInfo[]): ClientInfo[] {
  return clients
    .filter((client) => client.status === 'active')
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 6);
}
