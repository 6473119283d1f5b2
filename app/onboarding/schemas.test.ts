import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { croatianIban, oibCheckDigit } from '../utils/validation.ts';
import { DOCUMENT_TYPE_OF_KYC, formatBytes, hasAllowedExtension, KYC_DOCUMENT_TYPES, KYC_MAX_FILE_BYTES, missingKycTypes } from './kyc.ts';
import { attachUploadSchema, bankingStepSchema, companyStepSchema, COUNTRIES, MESSAGES } from './schemas.ts';

const OIB = `1234567890${oibCheckDigit('1234567890')}`;
const BAD_CHECK_OIB = `1234567890${(oibCheckDigit('1234567890') + 1) % 10}`;
const IBAN = croatianIban('2340009', '1110012345');

const company = {
  companyName: 'Primjer d.o.o.',
  oib: OIB,
  registrationNumber: '080123456',
  contactPerson: 'Ana Anić',
  email: 'Ana@Primjer.hr',
  phone: '+385 1 234 5678',
};
const banking = { address: 'Ilica 1', city: 'Zagreb', postalCode: '10000', country: 'Croatia', iban: IBAN, creditLimit: '50000' };

/** The first message on each field, as the form shows it. */
function errorsOf(schema: typeof companyStepSchema | typeof bankingStepSchema, value: Record<string, unknown>) {
  const result = schema.safeParse(value);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('step 1: company information', () => {
  it('accepts a complete company and lower-cases the email', () => {
    const result = companyStepSchema.parse(company);
    expect(result).toMatchObject({ ...company, email: 'ana@primjer.hr' });
  });

  it.each([
    ['companyName', '', MESSAGES.companyNameRequired],
    ['companyName', '   ', MESSAGES.companyNameRequired],
    ['companyName', 'x'.repeat(256), MESSAGES.companyNameRequired],
    ['registrationNumber', '', MESSAGES.registrationNumberRequired],
    ['contactPerson', '', MESSAGES.contactPersonRequired],
    ['phone', '', MESSAGES.phoneRequired],
    ['phone', '1'.repeat(51), MESSAGES.phoneRequired],
    ['email', 'not-an-email', MESSAGES.emailInvalid],
    ['email', '', MESSAGES.emailInvalid],
    ['oib', '', MESSAGES.oibFormat],
    ['oib', '1234567890', MESSAGES.oibFormat],
    ['oib', '123456789012', MESSAGES.oibFormat],
    ['oib', '1234567890a', MESSAGES.oibFormat],
    ['oib', BAD_CHECK_OIB, MESSAGES.oibChecksum],
  ])('%s = %j → %s', (field, value, message) => {
    expect(errorsOf(companyStepSchema, { ...company, [field]: value })).toEqual({ [field]: message });
  });

  it('a missing field gets its own message (as conform sends an empty input)', () => {
    const submission = parseWithZod(new URLSearchParams({ ...company, companyName: '', oib: '' }), { schema: companyStepSchema });
    expect(submission.status).toBe('error');
    expect(submission.status === 'error' && submission.error).toMatchObject({ companyName: [MESSAGES.companyNameRequired], oib: [MESSAGES.oibFormat] });
  });

  it('the messages are i18n keys whose English texts are the spec’s', async () => {
    const en = (await import('../locales/en/onboarding.json')).default.onboarding.errors;
    expect(en.oibFormat).toBe('OIB must have exactly 11 digits');
    expect(en.emailInvalid).toBe('Invalid email address');
    expect(en.registrationFailed).toBe('Client registration failed');
    expect(en.documentsFailed).toBe('Error registering documents');
    for (const key of Object.values(MESSAGES)) expect(key).toMatch(/^onboarding\./);
  });
});

describe('step 2: address and banking', () => {
  it('accepts the address, normalises the IBAN and parses the limit to cents', () => {
    const result = bankingStepSchema.parse({ ...banking, iban: IBAN.toLowerCase().replace(/(.{4})/g, '$1 ') });
    expect(result).toEqual({ ...banking, iban: IBAN, creditLimit: 5_000_000 });
  });

  it('country defaults to Croatia and offers the four countries', () => {
    const { country, ...rest } = banking;
    expect(bankingStepSchema.parse(rest).country).toBe(country);
    expect(COUNTRIES).toEqual(['Croatia', 'Slovenia', 'Bosnia and Herzegovina', 'Serbia']);
    for (const option of COUNTRIES) expect(bankingStepSchema.parse({ ...banking, country: option }).country).toBe(option);
  });

  it('the desired credit limit is optional (empty means the factor assesses it)', () => {
    const submission = parseWithZod(new URLSearchParams({ ...banking, creditLimit: '' }), { schema: bankingStepSchema });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value.creditLimit).toBeUndefined();
  });

  it.each([
    ['address', '', MESSAGES.addressRequired],
    ['city', '', MESSAGES.cityRequired],
    ['postalCode', '1000', MESSAGES.postalCodeFormat],
    ['postalCode', '100000', MESSAGES.postalCodeFormat],
    ['postalCode', 'abcde', MESSAGES.postalCodeFormat],
    ['postalCode', '', MESSAGES.postalCodeFormat],
    ['country', 'Austria', MESSAGES.countryInvalid],
    ['iban', '', MESSAGES.ibanFormat],
    ['iban', 'DE89370400440532013000', MESSAGES.ibanFormat],
    ['iban', 'HR12100100518630001', MESSAGES.ibanFormat],
    ['iban', `${IBAN.slice(0, 2)}${IBAN[2] === '9' ? '0' : String(Number(IBAN[2]) + 1)}${IBAN.slice(3)}`, MESSAGES.ibanChecksum],
    ['creditLimit', 'abc', MESSAGES.creditLimitInvalid],
    ['creditLimit', '-5', MESSAGES.creditLimitInvalid],
    ['creditLimit', '0', MESSAGES.creditLimitInvalid],
    ['creditLimit', '100.123', MESSAGES.creditLimitInvalid],
  ])('%s = %j → %s', (field, value, message) => {
    expect(errorsOf(bankingStepSchema, { ...banking, [field]: value })).toEqual({ [field]: message });
  });
});

describe('step 3: KYC documents', () => {
  it('the JavaScript flow names a KYC type and an object id', () => {
    expect(attachUploadSchema.safeParse({ kycType: 'director_id', objectId: '6f1c1a8e-3b0b-4a36-9c1e-2f6d1f3f5a10' }).success).toBe(true);
    expect(attachUploadSchema.safeParse({ kycType: 'passport', objectId: '6f1c1a8e-3b0b-4a36-9c1e-2f6d1f3f5a10' }).error?.issues[0].message).toBe(MESSAGES.kycTypeInvalid);
    expect(attachUploadSchema.safeParse({ kycType: 'director_id', objectId: 'x' }).error?.issues[0].message).toBe(MESSAGES.uploadInvalid);
  });

  it('knows the five types, their nearest document type, the extensions, the limit and what is missing', () => {
    expect(KYC_DOCUMENT_TYPES).toEqual(['company_registration', 'tax_certificate', 'bank_statement', 'financial_statements', 'director_id']);
    expect(DOCUMENT_TYPE_OF_KYC).toEqual({
      company_registration: 'kyc_document',
      tax_certificate: 'kyc_document',
      bank_statement: 'bank_statement',
      financial_statements: 'financial_statement',
      director_id: 'id_document',
    });
    expect(KYC_MAX_FILE_BYTES).toBe(10485760);
    expect(['a.pdf', 'B.JPG', 'c.jpeg', 'd.png'].every(hasAllowedExtension)).toBe(true);
    expect(['a.txt', 'a.exe', 'pdf', 'a.pdf.exe'].some(hasAllowedExtension)).toBe(false);
    expect(missingKycTypes(['tax_certificate', 'director_id'])).toEqual(['company_registration', 'bank_statement', 'financial_statements']);
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
  });
});
