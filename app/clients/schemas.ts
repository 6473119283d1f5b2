import * as z from 'zod';
import { CLIENT_STATUSES, type ClientStatus } from '../../db/models/enums.ts';
import { centsToDecimalString } from '../utils/money.ts';
import { amountCentsSchema, emailSchema, ibanSchema, oibSchema, postalCodeSchema, requiredString, textSchema } from '../utils/validation.ts';

/**
 * The client/customer creation dialog (docs/domain-model.md#validation) and the edits of the detail
 * pages. Shared by the browser forms (conform) and the API, so nothing
 * server-only may be imported here. Messages are refusal codes
 * (docs/decisions/013-error-codes.md).
 */
export const PARTY_ERRORS = {
  companyNameRequired: 'clients.validation.companyNameRequired',
  oibFormat: 'clients.validation.oibFormat',
  oibChecksum: 'clients.validation.oibChecksum',
  emailFormat: 'clients.validation.emailFormat',
  postalCode: 'clients.validation.postalCode',
  ibanFormat: 'clients.validation.ibanFormat',
  ibanChecksum: 'clients.validation.ibanChecksum',
  tooLong255: 'clients.validation.tooLong255',
  tooLong50: 'clients.validation.tooLong50',
  invalidStatus: 'clients.validation.invalidStatus',
  creditLimitInvalid: 'clients.validation.creditLimitInvalid',
  clientDuplicateOib: 'clients.validation.clientDuplicateOib',
  customerDuplicateOib: 'clients.validation.customerDuplicateOib',
  kycNotApproved: 'clients.validation.kycNotApproved',
} as const;

export const DEFAULT_COUNTRY = 'Croatia';

/** '' and whitespace-only count as "not given" (forms send empty inputs; JSON callers may send null). */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
/** In an update, a blank value clears the field; a missing key leaves it unchanged. */
const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

const text = (max: number, message: string) => textSchema(message, { max });

/** The creation fields, each optional one wrapped so that '' and null read as absent. */
function creationField<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToUndefined, schema.optional());
}

const partyCreateShape = {
  companyName: requiredString(PARTY_ERRORS.companyNameRequired, { max: 255, maxMessage: PARTY_ERRORS.tooLong255 }),
  oib: oibSchema(PARTY_ERRORS.oibFormat, PARTY_ERRORS.oibChecksum),
  address: creationField(text(255, PARTY_ERRORS.tooLong255)),
  city: creationField(text(255, PARTY_ERRORS.tooLong255)),
  postalCode: creationField(postalCodeSchema(PARTY_ERRORS.postalCode)),
  country: z.preprocess(blankToUndefined, text(255, PARTY_ERRORS.tooLong255).default(DEFAULT_COUNTRY)),
  email: creationField(emailSchema(PARTY_ERRORS.emailFormat)),
  phone: creationField(text(50, PARTY_ERRORS.tooLong50)),
  iban: creationField(ibanSchema(PARTY_ERRORS.ibanFormat, PARTY_ERRORS.ibanChecksum)),
  registrationNumber: creationField(text(50, PARTY_ERRORS.tooLong50)),
};

/**
 * POST /api/clients and the 'Dodaj novog klijenta' dialog. `status` is not in
 * the dialog (a new client is pending until its KYC is approved).
 * `creditLimit` is what a registration payload may carry (a number or null):
 * checked like every amount, so a wrong one is refused rather than dropped,
 * but never stored as the limit — a limit is only set by an approved limit
 * request (app/limits/credit-limits.server.ts). It parses to the exact
 * decimal text, so validating the output again gives the same value.
 */
export const clientCreateSchema = z.object({
  ...partyCreateShape,
  contactPerson: creationField(text(255, PARTY_ERRORS.tooLong255)),
  status: creationField(z.enum(CLIENT_STATUSES, PARTY_ERRORS.invalidStatus)),
  creditLimit: creationField(amountCentsSchema(PARTY_ERRORS.creditLimitInvalid).transform(centsToDecimalString)),
});

/** POST /api/customers and the 'Dodaj novog kupca' dialog: the client's fields without contactPerson (docs/api.md). */
export const customerCreateSchema = z.object(partyCreateShape);

/** What createClient takes; the schema's output satisfies it. */
export interface PartyCreateInput {
  companyName: string;
  oib: string;
  address?: string | null;
  city?: string | null;
  postalCode?: string | null;
  country?: string | null;
  email?: string | null;
  phone?: string | null;
  iban?: string | null;
  registrationNumber?: string | null;
}
export interface ClientCreateInput extends PartyCreateInput {
  contactPerson?: string | null;
  /** Default 'pending': active once its KYC is approved (app/onboarding/kyc-decision.server.ts). */
  status?: ClientStatus;
  /** A desired limit in EUR: validated, never applied (see clientCreateSchema). */
  creditLimit?: string | number | null;
}
export type CustomerCreateInput = PartyCreateInput;

function updateField<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToNull, schema.nullable().optional());
}

const partyUpdateShape = {
  companyName: partyCreateShape.companyName.optional(),
  oib: partyCreateShape.oib.optional(),
  address: updateField(text(255, PARTY_ERRORS.tooLong255)),
  city: updateField(text(255, PARTY_ERRORS.tooLong255)),
  postalCode: updateField(postalCodeSchema(PARTY_ERRORS.postalCode)),
  // NOT NULL in the database: clearing it means the default.
  country: z.preprocess((value) => (value !== undefined && blankToUndefined(value) === undefined ? DEFAULT_COUNTRY : value), text(255, PARTY_ERRORS.tooLong255).optional()),
  email: updateField(emailSchema(PARTY_ERRORS.emailFormat)),
  phone: updateField(text(50, PARTY_ERRORS.tooLong50)),
  iban: updateField(ibanSchema(PARTY_ERRORS.ibanFormat, PARTY_ERRORS.ibanChecksum)),
  registrationNumber: updateField(text(50, PARTY_ERRORS.tooLong50)),
};

/**
 * PUT /api/clients/{id}: any subset of the fields; a missing key is left as
 * it is, '' or null clears an optional field. The agreement and the credit
 * limit are not edited here (they have their own decisions: docs/lifecycle.md).
 */
export const clientUpdateSchema = z.object({
  ...partyUpdateShape,
  contactPerson: updateField(text(255, PARTY_ERRORS.tooLong255)),
  status: z.enum(CLIENT_STATUSES, PARTY_ERRORS.invalidStatus).optional(),
});
export type ClientUpdateInput = z.input<typeof clientUpdateSchema>;

/** PUT /api/customers/{id}. Blockage and the FINA check date come from the FINA integration, not from this form. */
export const customerUpdateSchema = z.object(partyUpdateShape);
export type CustomerUpdateInput = z.input<typeof customerUpdateSchema>;

/**
 * The detail pages' edit forms post every field, so they validate with the
 * creation rules (company name and OIB required) in the browser.
 */
export const clientEditFormSchema = clientCreateSchema;
export const customerEditFormSchema = customerCreateSchema;

/** Any of the creation/edit form schemas (what the shared page helpers accept). */
export type PartySchema = typeof clientCreateSchema | typeof customerCreateSchema;

export const CLIENT_FIELDS = ['companyName', 'oib', 'address', 'city', 'postalCode', 'country', 'contactPerson', 'email', 'phone', 'iban', 'registrationNumber'] as const;
export const CUSTOMER_FIELDS = CLIENT_FIELDS.filter((field) => field !== 'contactPerson');
export type PartyField = (typeof CLIENT_FIELDS)[number];
