import { randomUUID } from 'node:crypto';
import { camt053Fixture } from '../../app/banking/camt053-fixture.ts';
import { factorAccount } from '../../app/banking/factor-account.server.ts';
import { createUploadSlot } from '../../app/documents/uploads.server.ts';
import { TEST_PASSWORD } from '../factories.ts';
import { AGREEMENT_TERMS, DAY, PDF, STEPS, type Fixtures } from './bad-input-fixtures.ts';

/**
 * The table of app/routes/bad-input.test.ts (used by that test only): for every POST
 * and PUT route under app/routes/api.*.ts, a body that passes validation, its
 * text fields and the invalid values each field must refuse, and the rows the
 * bodies name (bad-input-fixtures.ts).
 */

export type Body = Record<string, unknown>;

/** A JSON value written as is (1e400 has no JavaScript form: JSON.parse reads it as Infinity). */
export class Raw {
  constructor(readonly text: string) {}
}

/** An invalid value answered with another status than 400, still naming `field` (a well-formed id of nothing is a 404). */
export class Refused {
  constructor(
    readonly value: unknown,
    readonly status: number,
    readonly field: string,
  ) {}
}

interface JsonCase {
  params?: (fx: Fixtures) => Record<string, string>;
  /** A body that passes validation: each probe changes one field of it. */
  body: (fx: Fixtures) => Body;
  /** Text fields, dotted ('steps.0.name', 'credentials.apiKey'): each gets a NUL byte, then a lone surrogate. */
  text: string[];
  /** Field → invalid values: optional fields that are present but wrong, and other fields a client may get wrong. */
  invalid?: Record<string, unknown[]>;
  /** The row a PUT edits: it must be byte-for-byte the same after a refusal. */
  row?: (fx: Fixtures) => { table: string; id: string };
}

interface CustomProbe {
  label: string;
  field: string;
  request: Request;
  params?: Record<string, string>;
}
interface CustomCase {
  custom: (fx: Fixtures, cookie: string) => Promise<CustomProbe[]> | CustomProbe[];
}
/** A call without a body: nothing a client sends can be wrong but the id in the path (404 when unknown). */
interface NoInputCase {
  noInput: string;
}
type Case = JsonCase | CustomCase | NoInputCase;

export const NUL = 'Zagreb\u0000d.o.o.';
export const SURROGATE = 'Zagreb\uD800d.o.o.';

const party = (oib: string) => ({
  companyName: 'Jadran d.o.o.',
  oib,
  address: 'Ilica 1',
  city: 'Zagreb',
  postalCode: '10000',
  country: 'Croatia',
  email: 'info@jadran.hr',
  phone: '+385 1 2345 678',
  iban: 'HR1723600001101234565',
  registrationNumber: '080012345',
});
const PARTY_TEXT = ['companyName', 'oib', 'address', 'city', 'postalCode', 'country', 'email', 'phone', 'iban', 'registrationNumber'];
const PARTY_INVALID = { postalCode: ['123'], email: ['not-an-email'], iban: ['HR00'], address: [5], oib: ['12345678900'] };

const AGREEMENT_TEXT = [
  'number',
  'effectiveFrom',
  'validFrom',
  'validUntil',
  'advanceRate',
  'feeModel',
  'feeRate',
  'minimumFee',
  'adminFee',
  'documentationFee',
  'recourseDays',
  'maxTenorDays',
  'concentrationLimit',
  'concentrationThreshold',
];
const AGREEMENT_INVALID = {
  effectiveFrom: ['2026-02-30', 5],
  validUntil: ['2000-01-01', '9999-99-99'],
  advanceRate: [0, 100.01, '80.123', new Raw('1e400'), true],
  feeModel: ['interest_366', 5],
  feeRate: [-1, '1.23456', 101],
  minimumFee: [-1, '1.234', new Raw('1e400')],
  recourse: ['maybe', 5],
  recourseDays: [-1, 1.5, 4000],
  maxTenorDays: [0, 'x', 4000],
  disclosed: ['maybe', null],
  requiresDebtorConfirmation: ['maybe', 5],
  concentrationLimit: [0, 101],
};

export const TABLE: Record<string, Case> = {
  'api.admin.users.$userId.otp.ts PUT': {
    params: (fx) => ({ userId: fx.other.id }),
    body: () => ({ otpEnabled: false }),
    text: ['otpEnabled'],
    invalid: { otpEnabled: ['yes', 1] },
    row: (fx) => ({ table: 'users', id: fx.other.id }),
  },
  'api.admin.users.$userId.reset-totp.ts POST': { noInput: 'resets the authenticator of the user named in the path; no body' },
  'api.admin.users.$userId.role.ts PUT': {
    params: (fx) => ({ userId: fx.other.id }),
    body: () => ({ role: 'manager' }),
    text: ['role'],
    invalid: { role: ['god', 5] },
    row: (fx) => ({ table: 'users', id: fx.other.id }),
  },
  'api.admin.users.$userId.status.ts PUT': {
    params: (fx) => ({ userId: fx.other.id }),
    body: () => ({ isActive: true }),
    text: ['isActive'],
    invalid: { isActive: ['yes', null] },
    row: (fx) => ({ table: 'users', id: fx.other.id }),
  },
  'api.admin.users.ts POST': {
    body: () => ({ email: `new-${randomUUID().slice(0, 6)}@finflow.test`, firstName: 'Ana', lastName: 'Anić', role: 'user', password: 'Long-enough-1' }),
    text: ['email', 'firstName', 'lastName', 'role', 'password'],
    invalid: { password: ['short', 12345678], role: ['god'], email: ['x@'] },
  },
  'api.auth.change-password.ts PUT': {
    body: () => ({ currentPassword: TEST_PASSWORD, newPassword: 'New-password-12', confirmPassword: 'New-password-12' }),
    text: ['currentPassword', 'newPassword', 'confirmPassword'],
    invalid: { newPassword: ['short'], confirmPassword: ['Other-password-12'] },
    row: (fx) => ({ table: 'users', id: fx.admin.id }),
  },
  'api.auth.login.ts POST': {
    body: (fx) => ({ email: fx.admin.email, password: TEST_PASSWORD }),
    text: ['email', 'password'],
    invalid: { email: [5], password: [''] },
  },
  'api.auth.forgot-password.ts POST': {
    body: (fx) => ({ email: fx.other.email }),
    text: ['email'],
    invalid: { email: ['x@', 5, null] },
  },
  'api.auth.reset-password.ts POST': {
    body: (fx) => ({ token: fx.resetToken, password: 'New-password-12' }),
    text: ['token', 'password'],
    invalid: { password: ['short', 12345678], token: [5, ''] },
    row: (fx) => ({ table: 'users', id: fx.other.id }),
  },
  'api.auth.logout.ts POST': { noInput: 'ends the caller’s own session; no body' },
  'api.auth.profile.ts PUT': {
    body: () => ({ firstName: 'Ivana', lastName: 'Horvat', email: `ivana-${randomUUID().slice(0, 6)}@finflow.test` }),
    text: ['firstName', 'lastName', 'email'],
    invalid: { email: ['x@'], firstName: [''] },
    row: (fx) => ({ table: 'users', id: fx.admin.id }),
  },
  'api.auth.totp.setup.ts POST': { noInput: 'starts an authenticator set-up for the caller; no body' },
  'api.auth.totp.verify-setup.ts POST': {
    body: () => ({ totpCode: '123456' }),
    text: ['totpCode'],
    invalid: { totpCode: ['12345', 123456] },
  },
  'api.auth.verify-otp.ts POST': {
    body: () => ({ otpCode: '123456' }),
    text: ['otpCode'],
    invalid: { otpCode: ['abcdef', 123456] },
  },
  'api.backups.ts POST': { noInput: 'queues a backup; no body' },
  'api.bank-statements.ts POST': {
    custom: (fx, cookie) => {
      const statement = (extra: { bookingDate?: string; ustrd?: string } = {}) =>
        camt053Fixture({
          iban: factorAccount().iban,
          statementId: `T-${randomUUID().slice(0, 8)}`,
          entries: [{ ref: `E-${randomUUID()}`, amount: '10.00', ustrd: 'Uplata', ...extra }],
        });
      const xml = (body: string, query = '') =>
        new Request(`http://localhost/api/bank-statements${query}`, { method: 'POST', body, headers: { Cookie: cookie, 'Content-Type': 'application/xml' } });
      const multipart = (fileName: string) => {
        const form = new FormData();
        form.append('file', new Blob([statement()], { type: 'application/xml' }), fileName);
        return new Request('http://localhost/api/bank-statements', { method: 'POST', body: form, headers: { Cookie: cookie } });
      };
      return [
        { label: 'NUL in ?fileName', field: 'fileName', request: xml(statement(), '?fileName=izvod%00.xml') },
        // A lone surrogate cannot travel in a URL (percent-decoding turns it into U+FFFD); a C1 control can.
        { label: 'C1 control in ?fileName', field: 'fileName', request: xml(statement(), '?fileName=izvod%C2%85.xml') },
        { label: 'control character in the multipart file name', field: 'file', request: multipart('izvod\u0001.xml') },
        { label: '&#0; in the XML text', field: 'file', request: xml(statement().replace('>Uplata<', '>Uplata &#0;<')) },
        { label: '&#1; in the XML text', field: 'file', request: xml(statement().replace('>Uplata<', '>Uplata &#1;<')) },
        { label: 'a surrogate by reference in the XML text', field: 'file', request: xml(statement().replace('>Uplata<', '>Uplata &#xD800;<')) },
        { label: 'booking date 2026-02-30', field: 'file', request: xml(statement({ bookingDate: '2026-02-30' })) },
        { label: 'booking date 9999-99-99', field: 'file', request: xml(statement({ bookingDate: '9999-99-99' })) },
      ];
    },
  },
  'api.bank-statements.unmatched.$id.assign.ts POST': {
    params: (fx) => ({ id: fx.unmatchedEntryId }),
    body: (fx) => ({ invoiceId: fx.invoice.id }),
    text: ['invoiceId'],
    invalid: { invoiceId: ['not-an-id', 5] },
    row: (fx) => ({ table: 'bank_statement_entries', id: fx.unmatchedEntryId }),
  },
  'api.clients.$clientId.agreements.ts POST': {
    params: (fx) => ({ clientId: fx.applicant.id }),
    body: () => AGREEMENT_TERMS,
    text: AGREEMENT_TEXT,
    invalid: AGREEMENT_INVALID,
  },
  'api.agreements.$id.ts PUT': {
    params: (fx) => ({ id: fx.agreement.id }),
    body: (fx) => ({ ...AGREEMENT_TERMS, number: fx.agreement.number }),
    text: AGREEMENT_TEXT,
    invalid: AGREEMENT_INVALID,
    row: (fx) => ({ table: 'agreements', id: fx.agreement.id }),
  },
  'api.agreements.$id.mark-signed.ts POST': {
    params: (fx) => ({ id: fx.agreement.id }),
    body: () => ({ signedOn: DAY(0) }),
    text: ['signedOn'],
    invalid: { signedOn: ['2026-02-30', 5, DAY(3)] },
    row: (fx) => ({ table: 'agreements', id: fx.agreement.id }),
  },
  'api.agreements.$id.send-for-signature.ts POST': { noInput: 'sends the version named in the path to the client for signature; no body' },
  'api.clients.$clientId.kyc-decision.ts POST': {
    params: (fx) => ({ clientId: fx.applicant.id }),
    body: () => ({ decision: 'reject', reason: 'Nepotpuna dokumentacija' }),
    text: ['decision', 'reason', 'message'],
    invalid: { decision: ['maybe', 5], reason: [5, ''], message: [5, { text: 'x' }] },
    row: (fx) => ({ table: 'clients', id: fx.applicant.id }),
  },
  'api.clients.$clientId.ts PUT': {
    params: (fx) => ({ clientId: fx.client.id }),
    body: (fx) => ({ ...party(fx.client.oib), contactPerson: 'Ivana Horvat', status: 'active' }),
    text: [...PARTY_TEXT, 'contactPerson', 'status'],
    invalid: { ...PARTY_INVALID, status: ['zzz'], contactPerson: [5], companyName: [''] },
    row: (fx) => ({ table: 'clients', id: fx.client.id }),
  },
  'api.clients.ts POST': {
    body: (fx) => ({ ...party(fx.freeOib), contactPerson: 'Ivana Horvat', creditLimit: 50000 }),
    text: [...PARTY_TEXT, 'contactPerson', 'status'],
    invalid: { ...PARTY_INVALID, status: ['zzz'], creditLimit: [-5, 'abc', 10_000_000_000_000, new Raw('1e400'), '1e3', 0.001, true] },
  },
  'api.credit-limits.$id.approve.ts PUT': {
    params: (fx) => ({ id: fx.limitRequest.id }),
    body: () => ({ approvedLimit: 1000 }),
    text: ['approvedLimit'],
    invalid: { approvedLimit: [-1, 'abc', 0, new Raw('1e400'), 10_000_000_000_000] },
    row: (fx) => ({ table: 'credit_limit_requests', id: fx.limitRequest.id }),
  },
  'api.credit-limits.$id.reject.ts PUT': {
    params: (fx) => ({ id: fx.limitRequest.id }),
    body: () => ({ reason: 'Odbijeno od strane administratora' }),
    text: ['reason'],
    invalid: { reason: ['', 5] },
    row: (fx) => ({ table: 'credit_limit_requests', id: fx.limitRequest.id }),
  },
  'api.credit-limits.ts POST': {
    body: (fx) => ({ clientId: fx.client.id, creditLimit: 150000, reason: 'Rast prometa', validUntil: DAY(200) }),
    text: ['clientId', 'creditLimit', 'reason', 'validUntil', 'customerId', 'partyType'],
    invalid: { validUntil: ['2026-02-30', '9999-99-99', '0000-01-01', 5], creditLimit: [-1, new Raw('1e400')], clientId: ['x'], customerId: ['x', 5], partyType: ['debtor', 5] },
  },
  'api.clients.$clientId.ledger-adjustments.ts POST': {
    params: (fx) => ({ clientId: fx.client.id }),
    body: () => ({ amount: -12.5, reason: 'Povrat troška' }),
    text: ['amount', 'reason'],
    invalid: { amount: [0, 'abc', '1,5', new Raw('1e400'), 1.234], reason: ['', 5], invoiceId: ['x', 5] },
  },
  'api.customers.$customerId.fina-check.ts POST': {
    custom: (fx, cookie) =>
      // A form body cannot carry a lone surrogate (it is encoded as U+FFFD): NUL and a header-splitting CR LF.
      [NUL, '/customers\r\nSet-Cookie: x=1'].map((value) => {
        const form = new URLSearchParams({ redirectTo: value });
        return {
          label: `redirectTo ${JSON.stringify(value)}`,
          field: 'redirectTo',
          params: { customerId: fx.customer.id },
          request: new Request(`http://localhost/api/customers/${fx.customer.id}/fina-check`, {
            method: 'POST',
            body: form,
            headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
          }),
        };
      }),
  },
  'api.debtor-links.ts POST': {
    body: (fx) => ({ clientId: fx.client.id, customerId: fx.customer.id }),
    text: ['clientId', 'customerId'],
    invalid: { clientId: ['x', 5], customerId: ['not-an-id', null] },
  },
  'api.debtor-links.$id.resend.ts POST': { noInput: 'mails a new link for the link named in the path; no body' },
  'api.debtor-links.$id.revoke.ts POST': { noInput: 'revokes the link named in the path; no body' },
  'api.invoices.$invoiceId.dispute.ts POST': {
    params: (fx) => ({ invoiceId: fx.invoice.id }),
    body: () => ({ reason: 'Roba nije isporučena.' }),
    text: ['reason'],
    invalid: { reason: ['', '   ', 5, 'x'.repeat(5001)] },
    row: (fx) => ({ table: 'invoices', id: fx.invoice.id }),
  },
  'api.customers.$customerId.ts PUT': {
    params: (fx) => ({ customerId: fx.customer.id }),
    body: (fx) => party(fx.customer.oib),
    text: PARTY_TEXT,
    invalid: PARTY_INVALID,
    row: (fx) => ({ table: 'customers', id: fx.customer.id }),
  },
  'api.customers.ts POST': {
    body: (fx) => party(fx.freeOib),
    text: PARTY_TEXT,
    invalid: PARTY_INVALID,
  },
  'api.documents.$id.sign.ts PUT': { noInput: 'signs the document named in the path; no body' },
  'api.documents.ts POST': {
    body: (fx) => ({
      name: 'Izvadak',
      type: 'kyc_document',
      kycType: 'company_registration',
      entityType: 'client',
      entityId: fx.client.id,
      fileUrl: fx.upload.uploadURL,
      size: PDF.length,
      mimeType: 'application/pdf',
    }),
    text: ['name', 'type', 'kycType', 'entityType', 'entityId', 'fileUrl', 'mimeType'],
    invalid: { kycType: ['zzz', 5], size: [-1, 'abc', true, 1.5], mimeType: [5], entityType: ['zzz'], fileUrl: ['https://elsewhere.example/x'] },
  },
  'api.documents.upload.ts POST': {
    body: (fx) => ({
      name: 'Ugovor',
      type: 'contract',
      fileData: PDF.toString('base64'),
      fileName: 'ugovor.pdf',
      entityType: 'client',
      entityId: fx.client.id,
      signatureRequired: true,
    }),
    text: ['name', 'type', 'fileData', 'fileName', 'entityType', 'entityId'],
    invalid: { signatureRequired: ['yes', 2, 'no'], entityType: ['zzz', 5], fileName: [5], entityId: ['x'], fileData: ['***'] },
  },
  'api.einvoices.$id.send.ts POST': { noInput: 'sends the e-invoice named in the path; no body' },
  'api.ledger-adjustments.$id.approve.ts POST': { noInput: 'approves the adjustment named in the path; no body' },
  'api.ledger-adjustments.$id.reject.ts POST': {
    params: (fx) => ({ id: fx.ledgerAdjustment.id }),
    body: () => ({ reason: 'Nema dokumentacije' }),
    text: ['reason'],
    invalid: { reason: ['', 5] },
    row: (fx) => ({ table: 'ledger_adjustments', id: fx.ledgerAdjustment.id }),
  },
  'api.email.campaigns.ts POST': {
    body: (fx) => ({ name: 'Novosti', templateId: fx.template.id, recipients: 'specific_clients', clientIds: [fx.client.id], scheduledAt: `${DAY(10)}T10:00` }),
    text: ['name', 'templateId', 'recipients', 'clientIds.0', 'scheduledAt'],
    invalid: { scheduledAt: ['2026-02-30T10:00', '9999-99-99T99:99', '2026-01-01T25:00', 'tomorrow', 5], recipients: ['everyone'], clientIds: [['x'], 'x'] },
  },
  'api.email.templates.$id.ts PUT': {
    params: (fx) => ({ id: fx.template.id }),
    body: () => ({ name: 'Dobrodošlica', subject: 'Dobrodošli', body: 'Poštovani {{client_name}},\nhvala.', trigger: 'manual', isActive: true }),
    text: ['name', 'subject', 'body', 'trigger'],
    invalid: { isActive: ['yes', 1], trigger: ['x'], body: [5] },
    row: (fx) => ({ table: 'email_templates', id: fx.template.id }),
  },
  'api.email.templates.preview.ts POST': {
    body: () => ({ subject: 'Dobrodošli', body: 'Poštovani {{client_name}},\nhvala.' }),
    text: ['subject', 'body'],
    invalid: { body: [5, ''] },
  },
  'api.email.templates.ts POST': {
    body: () => ({ name: 'Podsjetnik', trigger: 'manual', subject: 'Podsjetnik', body: 'Poštovani,\nplaćanje dospijeva.', isActive: false }),
    text: ['name', 'trigger', 'subject', 'body'],
    invalid: { isActive: ['yes', 1], trigger: ['x'] },
  },
  'api.integrations.$type.[test].ts POST': { noInput: 'tests the integration named in the path; no body' },
  'api.integrations.$type.ts PUT': {
    params: () => ({ type: 'hanfa' }),
    body: () => ({ endpoint: 'https://api.hanfa.example/v1', mode: 'sandbox', isEnabled: true, credentials: { apiKey: 'abc123' } }),
    text: ['endpoint', 'mode', 'credentials.apiKey'],
    invalid: { endpoint: ['ftp://x', 5], mode: ['x'], isEnabled: ['yes'], clearCredentials: ['yes'], credentials: [{ 'bad key': 'x' }, 'x'] },
    row: () => ({ table: 'integrations', id: '' }),
  },
  'api.invoices.$invoiceId.approve.ts PUT': { noInput: 'a decision on the invoice named in the path; no body' },
  'api.invoices.$invoiceId.dunning-hold.ts PUT': {
    params: (fx) => ({ invoiceId: fx.invoice.id }),
    body: () => ({ hold: true, reason: 'Dogovor o obročnoj otplati' }),
    text: ['reason'],
    invalid: { hold: ['yes', 1, null], reason: [5, 'x'.repeat(5001)] },
    row: (fx) => ({ table: 'invoices', id: fx.invoice.id }),
  },
  'api.invoices.$invoiceId.finance.ts PUT': { noInput: 'a decision on the invoice named in the path; no body' },
  'api.invoices.$invoiceId.reject.ts PUT': {
    params: (fx) => ({ invoiceId: fx.invoice.id }),
    body: () => ({ reason: 'Dupli račun' }),
    text: ['reason'],
    invalid: { reason: ['', 5] },
    row: (fx) => ({ table: 'invoices', id: fx.invoice.id }),
  },
  'api.invoices.$invoiceId.verify.ts PUT': { noInput: 'a decision on the invoice named in the path; no body' },
  'api.invoices.$invoiceId.charge-back.ts PUT': {
    params: (fx) => ({ invoiceId: fx.invoice.id }),
    body: () => ({ reason: 'Dužnik u stečaju' }),
    text: ['reason'],
    invalid: { reason: ['', 5] },
    row: (fx) => ({ table: 'invoices', id: fx.invoice.id }),
  },
  'api.invoices.$invoiceId.write-off.ts POST': {
    params: (fx) => ({ invoiceId: fx.invoice.id }),
    body: () => ({ reason: 'Dužnik likvidiran' }),
    text: ['reason'],
    invalid: { reason: ['', 5] },
  },
  'api.write-offs.$id.approve.ts PUT': { noInput: 'a decision on the write-off request named in the path; no body' },
  'api.write-offs.$id.reject.ts PUT': {
    params: () => ({ id: '00000000-0000-4000-8000-000000000017' }),
    body: () => ({ reason: 'Još se naplaćuje' }),
    text: ['reason'],
    invalid: { reason: ['', 5] },
  },
  'api.invoices.$invoiceId.credit-notes.ts POST': {
    params: (fx) => ({ invoiceId: fx.invoice.id }),
    body: () => ({ number: 'ODB-1', issueDate: DAY(-1), amount: 100, reason: 'Povrat robe' }),
    text: ['number', 'issueDate', 'amount', 'reason'],
    invalid: { amount: [0, -5, 'abc', '1,5', new Raw('1e400'), 1.234], issueDate: ['2026-02-30', '9999-99-99', 5], number: ['', 5], reason: ['', 5] },
    row: (fx) => ({ table: 'invoices', id: fx.invoice.id }),
  },
  'api.invoices.$invoiceId.dispute.resolve.ts PUT': {
    params: (fx) => ({ invoiceId: fx.invoice.id }),
    body: () => ({ outcome: 'reduced', agreedAmount: 1000, note: 'Dogovoreno' }),
    text: ['outcome', 'agreedAmount', 'note'],
    invalid: { outcome: ['settled', 5], agreedAmount: [-1, 'abc', new Raw('1e400'), 1.234], note: ['', 5] },
    row: (fx) => ({ table: 'invoices', id: fx.invoice.id }),
  },
  'api.invoices.import.ts POST': {
    custom: async (fx, cookie) => {
      const xml = await (await import('node:fs/promises')).readFile(new URL('../../app/einvoices/fixtures/valid-invoice.xml', import.meta.url), 'utf8');
      const post = (body: string, query: string) =>
        new Request(`http://localhost/api/invoices/import?${query}`, { method: 'POST', body, headers: { Cookie: cookie, 'Content-Type': 'application/xml' } });
      const base = `clientId=${fx.client.id}&createCustomer=true`;
      const multipart = (fields: Record<string, string>, fileName = 'racun.xml') => {
        const form = new FormData();
        for (const [key, value] of Object.entries(fields)) form.append(key, value);
        form.append('file', new Blob([xml], { type: 'application/xml' }), fileName);
        return new Request('http://localhost/api/invoices/import', { method: 'POST', body: form, headers: { Cookie: cookie } });
      };
      return [
        { label: 'NUL in ?clientId', field: 'clientId', request: post(xml, `clientId=${fx.client.id}%00`) },
        { label: 'NUL in ?fileName', field: 'fileName', request: post(xml, `${base}&fileName=r%00.xml`) },
        { label: 'C1 control in ?fileName', field: 'fileName', request: post(xml, `${base}&fileName=r%C2%85.xml`) },
        { label: 'NUL in the clientId form field', field: 'clientId', request: multipart({ clientId: `${fx.client.id}\u0000` }) },
        { label: 'control character in the file name', field: 'file', request: multipart({ clientId: fx.client.id }, 'racun\u0007.xml') },
        { label: '&#1; in the XML text', field: 'file', request: post(xml.replace('<cbc:Note>', '<cbc:Note>&#1;'), base) },
        { label: 'an empty PayableAmount', field: 'xml', request: post(xml.replace(/(<cbc:PayableAmount[^>]*>)[^<]*</, '$1<'), base) },
        { label: 'issue date 2026-02-30', field: 'xml', request: post(xml.replace(/<cbc:IssueDate>[^<]*</, '<cbc:IssueDate>2026-02-30<'), base) },
      ];
    },
  },
  'api.invoices.ts POST': {
    body: (fx) => ({
      clientId: fx.client.id,
      customerId: fx.customer.id,
      invoiceNumber: `R-${randomUUID().slice(0, 8)}`,
      issueDate: DAY(-5),
      dueDate: DAY(40),
      amount: 1250,
      currency: 'EUR',
      description: 'Isporuka robe',
      lines: [{ description: 'Roba', quantity: '1', unitCode: 'H87', unitPrice: '1000', vatCategory: 'S', vatRate: '25', kpdCode: '46.90.10' }],
    }),
    text: [
      'clientId',
      'customerId',
      'invoiceNumber',
      'issueDate',
      'dueDate',
      'amount',
      'currency',
      'description',
      'lines.0.description',
      'lines.0.unitCode',
      'lines.0.kpdCode',
      'lines.0.quantity',
    ],
    invalid: {
      issueDate: ['2026-02-30', '9999-99-99'],
      dueDate: ['2026-02-30'],
      currency: ['EURO'],
      description: [5],
      lines: ['x'],
      'lines.0.vatRate': ['101'],
      amount: [-1, new Raw('1e400')],
    },
  },
  'api.objects.upload.$token.ts PUT': {
    custom: async (_fx, cookie) => {
      const probes: CustomProbe[] = [];
      for (const [label, header] of [
        ['NUL in X-File-Name', 'izvod%00.pdf'],
        ['lone surrogate in X-File-Name', 'izvod%ED%A0%80.pdf'],
        ['C1 control in X-File-Name', 'izvod%C2%85.pdf'],
      ]) {
        const slot = await createUploadSlot({ ip: `10.9.${probes.length}.1` });
        const token = slot.uploadURL.split('/').at(-1)!;
        probes.push({
          label,
          field: 'fileName',
          params: { token },
          request: new Request(`http://localhost${slot.uploadURL}`, {
            method: 'PUT',
            body: PDF,
            headers: { Cookie: cookie, 'Content-Type': 'application/pdf', 'X-File-Name': header },
          }),
        });
      }
      return probes;
    },
  },
  'api.objects.upload.ts POST': { noInput: 'hands out an upload address; no body' },
  'api.payments.$id.confirm.ts PUT': { noInput: 'a decision on the payment named in the path; no body' },
  'api.payments.$id.fail.ts PUT': { noInput: 'a decision on the payment named in the path; no body' },
  'api.payments.$id.refund.ts PUT': { noInput: 'a decision on the payment named in the path; no body' },
  'api.payments.ts POST': {
    body: (fx) => ({ invoiceId: fx.invoice.id, amount: 100, paymentMethod: 'bank_transfer', reference: 'HR01 R-1', notes: 'Uplata\npo izvodu' }),
    text: ['invoiceId', 'amount', 'paymentMethod', 'reference', 'notes'],
    invalid: { paymentMethod: ['cash-in-hand'], reference: [5], notes: [5], amount: [-1, new Raw('1e400')] },
  },
  'api.payouts.export.ts POST': {
    body: () => ({ ids: [randomUUID()] }),
    text: ['ids.0'],
    invalid: { ids: ['x', [], [5]] },
  },
  'api.risk-assessments.$id.ts PUT': {
    params: (fx) => ({ id: fx.assessment.id }),
    body: () => ({ manualAdjustment: 5, notes: 'Povijest plaćanja\nuredna' }),
    text: ['notes', 'manualAdjustment'],
    invalid: { manualAdjustment: ['5', 101, 1.5], notes: [''] },
    row: (fx) => ({ table: 'risk_assessments', id: fx.assessment.id }),
  },
  'api.risk-assessments.ts POST': {
    body: (fx) => ({ entityType: 'client', entityId: fx.client.id, notes: 'Redovna procjena' }),
    text: ['entityType', 'entityId', 'notes'],
    invalid: { notes: [5], entityType: ['invoice'], entityId: ['x'] },
  },
  'api.tasks.$taskId.ts PUT': {
    params: (fx) => ({ taskId: fx.task.id }),
    body: (fx) => ({ title: 'Nazvati kupca', description: 'Dogovoriti\nplaćanje', priority: 'high', assignedTo: fx.other.id, dueDate: DAY(3), notes: 'Bilješka' }),
    text: ['title', 'description', 'priority', 'assignedTo', 'dueDate', 'notes', 'status', 'completedAt'],
    invalid: { dueDate: ['2026-02-30', '2026-02-30T10:00:00Z', '9999-99-99', 5], completedAt: ['2026-02-30T10:00', 5], priority: ['x'], assignedTo: ['x'], status: ['x'] },
    row: (fx) => ({ table: 'tasks', id: fx.task.id }),
  },
  'api.tasks.ts POST': {
    body: (fx) => ({
      title: 'Provjera',
      description: 'Provjeriti\ndokumente',
      type: 'manual_review',
      priority: 'medium',
      assignedTo: fx.other.id,
      dueDate: DAY(3),
      entityType: 'client',
      entityId: fx.client.id,
      notes: 'x',
    }),
    text: ['title', 'description', 'type', 'priority', 'assignedTo', 'dueDate', 'entityType', 'entityId', 'notes'],
    invalid: { dueDate: ['2026-02-30', '2026-02-30T10:00:00Z', '2026-01-01T24:00Z'], priority: ['x'], assignedTo: ['x'], entityType: ['x'], type: ['x'] },
  },
  'api.workflow-instances.$id.$control.ts PUT': { noInput: 'pause/resume/restart of the instance named in the path; no body' },
  'api.workflows.$id.[test].ts POST': {
    params: (fx) => ({ id: fx.workflowId }),
    body: (fx) => ({ entityId: fx.client.id }),
    text: ['entityId'],
    invalid: { entityId: ['x', 5] },
  },
  'api.workflows.$id.ts PUT': {
    params: (fx) => ({ id: fx.workflowId }),
    body: () => ({ name: 'Uključivanje klijenta', type: 'client_onboarding', description: 'Od registracije\ndo aktivacije', steps: STEPS, isActive: true }),
    text: ['name', 'type', 'description', 'steps.0.name', 'steps.0.type', 'steps.0.taskType'],
    invalid: { isActive: ['yes'], description: [5], steps: ['x', []], 'steps.0.taskType': ['unknown_task'] },
    row: (fx) => ({ table: 'workflow_definitions', id: fx.workflowId }),
  },
  'api.workflows.start.ts POST': {
    body: (fx) => ({ workflowType: 'client_onboarding', entityType: 'client', entityId: fx.client.id }),
    text: ['workflowType', 'entityType', 'entityId'],
    invalid: { entityId: ['x', new Refused(randomUUID(), 404, 'entityId')], entityType: [new Refused('invoice', 404, 'entityId'), 'user'] },
  },
  'api.workflows.ts POST': {
    body: () => ({ name: 'Novi proces', type: 'risk_assessment', description: 'Opis\nprocesa', steps: STEPS }),
    text: ['name', 'type', 'description', 'steps.0.name', 'steps.0.type', 'steps.0.taskType'],
    invalid: { description: [5], steps: ['x', []], type: ['custom'] },
  },
};
