import { parseWithZod } from '@conform-to/zod/v4';
import { json, unstable_createMemoryUploadHandler } from '@remix-run/node';
import type { Actor } from '../auth/users.server.ts';
import { partySearchCondition, type PartyCompanyDto } from '../clients/party.server.ts';
import { inTransaction, selectOne, selectRows } from '../db.server.ts';
import { storeDocument } from '../documents/documents.server.ts';
import { MAX_UPLOAD_BYTES } from '../documents/schemas.ts';
import { readApiError } from '../utils/api.server.ts';
import { readMultipartFormData } from '../utils/form-data.server.ts';
import { pageOffset, readListUrl, tabSchema } from '../utils/list-url.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import { redirectWithToast, toastHeaders } from '../utils/toast.server.ts';
import { approveInvoice, rejectInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { createInvoice } from './invoice-create.server.ts';
import { financeInvoice } from './financing.server.ts';
import { eligibilityView, financingFigures, invoiceEligibility } from './eligibility.server.ts';
import type { EligibilityCheckView } from './eligibility.ts';
import { AGREEMENT_COLUMNS, agreementsInForce, feeTermsOf, type AgreementRow } from '../agreements/in-force.server.ts';
import { invoiceFee } from '../agreements/fees.ts';
import { feeBaseReductions } from '../dilution/fee-base.server.ts';
import { money } from '../utils/api-values.ts';
import type { InvoiceDto } from './invoice-dto.server.ts';
import { type INVOICE_DECISIONS, INVOICE_MESSAGES, INVOICE_TABS, invoiceCreateSchema, type InvoiceTab } from './schemas.ts';
import { importUblInvoice } from './ubl-import.server.ts';
import { businessDay, sqlBusinessLocal } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';
import type { Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * The page side of /invoices and /invoices/{id}: URL parameters, the form
 * posts (add, e-invoice import, the four decisions) turned into domain calls,
 * and the options of the add form. Route modules stay thin.
 */
export const PAGE_SIZE = 20;
const OPTION_CAP = 500;
const INVOICE_TAB = tabSchema(INVOICE_TABS, 'all');

/** ?q=&tab=&page=&new=1; forgiving: an unknown tab is 'all', a bad page is 1. */
export function invoiceListParams(request: Request) {
  const url = readListUrl(request);
  const tab: InvoiceTab = url.read(INVOICE_TAB);
  return { q: url.q, tab, page: url.page, offset: pageOffset(url.page, PAGE_SIZE), limit: PAGE_SIZE, showNew: url.showNew };
}

/** Where a post returns to: the page it came from, without Remix's ?index and the ?new panel. */
export function backTo(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete('index');
  url.searchParams.delete('new');
  return `${url.pathname}${url.search}`;
}

export interface PartyOption {
  id: string;
  name: string;
  blocked?: boolean;
}

/**
 * The options of the add form's client and customer selects. Without
 * JavaScript they come with the page: the first names alphabetically (capped),
 * or, after the form's search step, the parties matching its term (name,
 * email, OIB prefix, as the lists search). The one already chosen stays
 * listed, so a search never drops a choice. `capped`: more exist than listed.
 */
export interface PartyOptionsView {
  clients: PartyOption[];
  customers: PartyOption[];
  capped: { clients: boolean; customers: boolean };
  /** How many parties the list or search found (up to the cap), the kept choice not counted. */
  found: { clients: number; customers: number };
}

async function pickerOptions(table: 'clients' | 'customers', term: string, chosenId: string): Promise<{ rows: PartyOption[]; capped: boolean; found: number }> {
  const columns = table === 'customers' ? 'id, company_name AS name, account_blocked AS blocked' : 'id, company_name AS name';
  const replacements: Record<string, unknown> = { cap: OPTION_CAP + 1 };
  const where = term ? `WHERE ${partySearchCondition(term, replacements)}` : '';
  const found = await selectRows<PartyOption>(`SELECT ${columns} FROM ${table} ${where} ORDER BY lower(company_name), id LIMIT :cap`, replacements);
  const rows = found.slice(0, OPTION_CAP);
  const count = rows.length;
  if (isUuid(chosenId) && !rows.some((row) => row.id === chosenId.toLowerCase())) {
    const chosen = await selectOne<PartyOption>(`SELECT ${columns} FROM ${table} WHERE id = :id`, { id: chosenId });
    if (chosen) rows.unshift(chosen);
  }
  return { rows, capped: found.length > OPTION_CAP, found: count };
}

export async function partyOptions(search: { clientQ?: string; customerQ?: string; clientId?: string; customerId?: string } = {}): Promise<PartyOptionsView> {
  const [clients, customers] = await Promise.all([
    pickerOptions('clients', search.clientQ ?? '', search.clientId ?? ''),
    pickerOptions('customers', search.customerQ ?? '', search.customerId ?? ''),
  ]);
  return {
    clients: clients.rows,
    customers: customers.rows,
    capped: { clients: clients.capped, customers: customers.capped },
    found: { clients: clients.found, customers: customers.found },
  };
}

/**
 * What financing an approved invoice would book today, on its client's
 * agreement in force (the domain's own formula, financingFigures), so the
 * confirmation can name the figures. The server computes them again on
 * finance; this is only the preview. One agreement read per client.
 */
export async function financePreviews(invoices: Pick<InvoiceDto, 'id' | 'status' | 'amount' | 'clientId' | 'dueDate'>[]) {
  const approved = invoices.filter((invoice) => invoice.status === 'approved');
  if (approved.length === 0) return {};
  const today = businessDay();
  // An approved invoice has no agreement_id yet, so the client's first financing under the agreement answers for all.
  const agreements = await agreementsInForce(
    approved.map((invoice) => invoice.clientId),
    today,
  );
  const previews: Record<string, { factorAmount: number; factorFee: number }> = {};
  for (const invoice of approved) {
    const terms = agreements.get(invoice.clientId);
    if (!terms) continue;
    const figures = financingFigures(terms.agreement, { amountCents: toCents(invoice.amount), dueDate: invoice.dueDate, today, firstUnderAgreement: terms.first });
    previews[invoice.id] = { factorAmount: centsToNumber(figures.advanceCents), factorFee: centsToNumber(figures.factorFeeCents) };
  }
  return previews;
}

/** The invoice page's financing panel: the checks of an approved invoice, before 'Financiraj' is pressed (docs/money.md#eligibility). */
export async function eligibilityPanel(invoice: Pick<InvoiceDto, 'id' | 'status'>): Promise<{ eligible: boolean; checks: EligibilityCheckView[] } | null> {
  if (invoice.status !== 'approved') return null;
  const eligibility = await invoiceEligibility(invoice.id);
  return { eligible: eligibility.eligible, checks: eligibilityView(eligibility) };
}

/** What a financed invoice was charged and has accrued: the agreement version used, the fee at financing and the fee to date. */
export interface FinancedFees {
  agreementNumber: string;
  agreementVersion: number;
  feeCharged: number;
  documentationFee: number;
  feeVat: number | null;
  /** invoiceFee from the financing day until today (the day it was paid, charged back or written off once closed), with the confirmed collections. */
  feeAccrued: number;
  accruedUntil: string;
}

/** The statuses of an invoice that was financed: the page shows its terms and fee (docs/money.md#fees-that-follow-time). */
const FINANCED_STATUSES: ReadonlyArray<InvoiceDto['status']> = ['financed', 'paid', 'charged_back', 'written_off'];

export async function financedFees(invoice: Pick<InvoiceDto, 'id' | 'status'>): Promise<FinancedFees | null> {
  if (!FINANCED_STATUSES.includes(invoice.status)) return null;
  // The fee stops running on the day the invoice closed: paid, charged back (settled then) or written off.
  const row = await selectOne<
    RowOf<typeof Invoice, 'amount' | 'factor_amount' | 'factor_fee' | 'factor_fee_vat' | 'documentation_fee' | 'agreement_id'> & { financed_on: string; closed_on: string | null }
  >(
    `SELECT amount, factor_amount, factor_fee, factor_fee_vat, documentation_fee, agreement_id,
            to_char(${sqlBusinessLocal('financed_at')}, 'YYYY-MM-DD') AS financed_on,
            to_char(${sqlBusinessLocal('coalesce(paid_at, charged_back_at, written_off_at)')}, 'YYYY-MM-DD') AS closed_on
       FROM invoices WHERE id = :id`,
    { id: invoice.id },
  );
  // Invoices financed before agreements (on the client's rates) have no version to show.
  if (!row?.agreement_id || row.factor_amount === null || row.factor_fee === null) return null;
  const agreement = (await selectOne<AgreementRow>(`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE id = :id`, { id: row.agreement_id }))!;
  const collections = await selectRows<{ day: string; amount: string }>(
    `SELECT to_char(${sqlBusinessLocal('processed_at')}, 'YYYY-MM-DD') AS day, amount FROM payments WHERE invoice_id = :id AND status = 'confirmed'`,
    { id: invoice.id },
  );
  const today = businessDay();
  const until = row.closed_on && row.closed_on < today ? row.closed_on : today;
  const accrued = invoiceFee(feeTermsOf(agreement), {
    amountCents: toCents(row.amount),
    advanceCents: toCents(row.factor_amount),
    financedOn: row.financed_on,
    until: until < row.financed_on ? row.financed_on : until,
    collections: [...collections.map((collection) => ({ day: collection.day, cents: toCents(collection.amount) })), ...(await feeBaseReductions(invoice.id, agreement.fee_model))],
  });
  return {
    agreementNumber: agreement.number,
    agreementVersion: agreement.version,
    feeCharged: money(row.factor_fee),
    documentationFee: money(row.documentation_fee),
    feeVat: row.factor_fee_vat === null ? null : money(row.factor_fee_vat),
    feeAccrued: centsToNumber(accrued.totalCents),
    accruedUntil: until,
  };
}

// ---------------------------------------------------------------------------
// Decisions: verify, approve, finance, reject

export type Decision = (typeof INVOICE_DECISIONS)[number];

/** A refused decision: the page shows the domain's message on the invoice's card (and toasts it with JavaScript). */
export interface DecisionRefusal {
  intent: Decision;
  id: string;
  status: number;
  message: string;
  reason?: string;
}

export async function handleDecision(formData: FormData, { actor, ip, back }: { actor: Actor; ip: string | null; back: string }) {
  const intent = String(formData.get('intent') ?? '') as Decision;
  const id = String(formData.get('id') ?? '');
  const reason = String(formData.get('reason') ?? '');
  try {
    const args = { actor, id, ip };
    const invoice =
      intent === 'verify'
        ? await verifyInvoice(args)
        : intent === 'approve'
          ? await approveInvoice(args)
          : intent === 'finance'
            ? await financeInvoice(args)
            : await rejectInvoice({ ...args, input: { reason } });
    return redirectWithToast(back, { title: `invoices.toast.${intent}Done`, params: { number: invoice.invoiceNumber } });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    const body: DecisionRefusal = { intent, id, status: problem.status, message: problem.message, ...(intent === 'reject' ? { reason } : {}) };
    return json(body, { status: problem.status });
  }
}

// ---------------------------------------------------------------------------
// Adding: the manual form (with an optional PDF) and the UBL e-invoice

const FIELD_NAMES = ['clientId', 'customerId', 'invoiceNumber', 'issueDate', 'dueDate', 'amount', 'currency', 'description'] as const;

/** The buyer the 409 of an e-invoice import proposes to add, as the page shows it. */
export type ProposedCustomerView = Omit<PartyCompanyDto, 'id'>;

export interface ImportResult {
  intent: 'import';
  ok: boolean;
  message?: string;
  clientId?: string;
  proposal?: ProposedCustomerView;
  /** The uploaded XML, kept in the confirmation form so the user need not pick the file again. */
  xmlText?: string;
  fileName?: string;
}

/**
 * The search step of the add forms without JavaScript: a 'find' button posts
 * the form as it is, and the answer brings it back with what was entered and
 * the selects listing the parties that match the typed terms. Nothing is
 * stored. A chosen file cannot be given back to a file input; it is picked
 * again (browsers allow no other way).
 */
export interface FindResult {
  intent: 'find';
  /** Which of the two forms searched: the manual form or the e-invoice intake. */
  form: 'create' | 'import';
  values: Record<string, string>;
  clientQ: string;
  customerQ: string;
  options: PartyOptionsView;
}

const searchTerm = (formData: FormData, name: string) =>
  String(formData.get(name) ?? '')
    .trim()
    .slice(0, 100);

export async function handleFind(formData: FormData) {
  const form = formData.get('intent') === 'import' ? 'import' : 'create';
  const names = form === 'import' ? (['clientId'] as const) : FIELD_NAMES;
  const values = Object.fromEntries(names.map((name) => [name, String(formData.get(name) ?? '')]));
  const clientQ = searchTerm(formData, 'clientQ');
  const customerQ = form === 'import' ? '' : searchTerm(formData, 'customerQ');
  const options = await partyOptions({ clientQ, customerQ, clientId: values.clientId, customerId: values.customerId });
  return json({ intent: 'find', form, values, clientQ, customerQ, options } satisfies FindResult);
}

/** A multipart post of the add forms; one byte over the document limit is enough to refuse. */
export async function readAddForm(request: Request): Promise<FormData | 'tooLarge'> {
  try {
    return await readMultipartFormData(request, unstable_createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD_BYTES + 1 }));
  } catch (error) {
    if (error instanceof Response && error.status === 413) return 'tooLarge';
    throw error;
  }
}

function chosenFile(formData: FormData, name: string): File | null {
  const file = formData.get(name);
  return file instanceof Blob && file.size > 0 ? (file as File) : null;
}

/**
 * The manual form: the invoice and its optional PDF in one transaction, so a
 * refused PDF leaves no invoice behind. From the JavaScript dialog
 * (`via=dialog`) it answers JSON so the dialog can close; otherwise PRG.
 */
export async function handleCreate(formData: FormData, { actor, ip, back }: { actor: Actor; ip: string | null; back: string }) {
  const submission = parseWithZod(formData, { schema: invoiceCreateSchema });
  if (submission.status !== 'success') return json({ intent: 'create' as const, result: submission.reply() }, { status: 400 });
  // The raw strings: createInvoice validates them again with the same schema.
  const text = (name: (typeof FIELD_NAMES)[number]) => String(formData.get(name) ?? '');
  const input = {
    clientId: text('clientId'),
    customerId: text('customerId'),
    invoiceNumber: text('invoiceNumber'),
    issueDate: text('issueDate'),
    dueDate: text('dueDate'),
    amount: text('amount'),
    currency: text('currency'),
    description: text('description'),
  };
  const pdf = chosenFile(formData, 'file');
  let number = '';
  try {
    await inTransaction(async (transaction) => {
      const invoice = await createInvoice({ actor, input, ip }, { transaction });
      number = invoice.invoiceNumber;
      if (pdf) {
        await storeDocument(
          {
            actor,
            bytes: Buffer.from(await pdf.arrayBuffer()),
            fileName: pdf.name || null,
            declaredMime: pdf.type || null,
            name: `${invoice.invoiceNumber}.pdf`.slice(0, 255),
            type: 'invoice',
            entityType: 'invoice',
            entityId: invoice.id,
            ip,
            allowed: ['pdf'],
          },
          { transaction },
        );
      }
    });
  } catch (error) {
    const problem = await readApiError(error);
    if (!problem) throw error;
    // A refused PDF names the 'file' field; everything else lands on its field or the whole form.
    const fieldErrors = problem.errors && Object.keys(problem.errors).some((key) => key !== '') ? problem.errors : undefined;
    const result = submission.reply({ formErrors: fieldErrors ? [] : [problem.message], fieldErrors: fieldErrors ?? {} });
    return json({ intent: 'create' as const, result }, { status: problem.status });
  }
  const toast = { title: 'invoices.toast.created', params: { number } };
  if (formData.get('via') === 'dialog') {
    return json({ intent: 'create' as const, result: submission.reply({ resetForm: true }), created: true }, { headers: await toastHeaders(toast) });
  }
  return redirectWithToast(back, toast);
}

/**
 * The e-invoice form: the XML file (or, on the confirmation step, its text
 * kept in the form) → importUblInvoice. A buyer that is not a customer yet
 * comes back as a proposal the user confirms with createCustomer=true.
 */
export async function handleImport(formData: FormData, { actor, ip, back }: { actor: Actor; ip: string | null; back: string }) {
  const clientId = String(formData.get('clientId') ?? '');
  const file = chosenFile(formData, 'xmlFile');
  const xmlText = file ? Buffer.from(await file.arrayBuffer()).toString('utf8') : String(formData.get('xmlText') ?? '');
  const fileName = file?.name || String(formData.get('fileName') ?? '') || null;
  const refuse = (status: number, message: string, extra: Partial<ImportResult> = {}) =>
    json({ intent: 'import' as const, ok: false, message, clientId, ...extra } satisfies ImportResult, { status });
  if (!clientId) return refuse(400, INVOICE_MESSAGES.clientRequired);
  if (!xmlText.trim()) return refuse(400, INVOICE_MESSAGES.xmlFileRequired);
  let number = '';
  try {
    const invoice = await importUblInvoice({ actor, clientId, xml: xmlText, fileName, createCustomer: formData.get('createCustomer') === 'true', ip });
    number = invoice.invoiceNumber;
  } catch (error) {
    if (error instanceof Response && error.status === 409) {
      const body = (await error
        .clone()
        .json()
        .catch(() => null)) as { message?: string; proposedCustomer?: ProposedCustomerView } | null;
      if (body?.proposedCustomer) {
        return refuse(409, body.message ?? '', { proposal: body.proposedCustomer, xmlText, fileName: fileName ?? undefined });
      }
    }
    const problem = await readApiError(error);
    if (!problem) throw error;
    return refuse(problem.status, problem.message);
  }
  const toast = { title: 'invoices.toast.imported', params: { number } };
  if (formData.get('via') === 'dialog') {
    return json({ intent: 'import' as const, ok: true } satisfies ImportResult, { headers: await toastHeaders(toast) });
  }
  return redirectWithToast(back, toast);
}
