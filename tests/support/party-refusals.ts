import { croatianIban } from '../../app/utils/validation.ts';

const IBAN = croatianIban('2360000', '1101234567');

/**
 * The company fields clients and customers share (`partyCreateShape`, app/clients/schemas.ts) and how each refuses
 * a bad value: the field, the input that breaks it, the message. Customers have no contact person.
 */
export const PARTY_FIELD_REFUSALS: ReadonlyArray<readonly [field: string, patch: Record<string, unknown>, message: string]> = [
  ['companyName', { companyName: '' }, 'Company name is required'],
  ['companyName', { companyName: ' ' }, 'Company name is required'],
  ['companyName', { companyName: undefined }, 'Company name is required'],
  ['companyName', { companyName: 'x'.repeat(256) }, 'At most 255 characters'],
  ['oib', { oib: '123' }, 'OIB must be 11 digits'],
  ['oib', { oib: '1234567890a' }, 'OIB must be 11 digits'],
  ['oib', { oib: '12345678900' }, 'OIB check digit is invalid'],
  ['oib', { oib: '11111111112' }, 'OIB check digit is invalid'],
  ['email', { email: 'not-an-email' }, 'Invalid email format'],
  ['email', { email: 'kupac@' }, 'Invalid email format'],
  ['postalCode', { postalCode: '1000' }, 'Postal code must be 5 digits'],
  ['postalCode', { postalCode: 'abcde' }, 'Postal code must be 5 digits'],
  ['iban', { iban: 'DE89370400440532013000' }, 'IBAN must be HR followed by 19 digits'],
  ['iban', { iban: 'HR12' }, 'IBAN must be HR followed by 19 digits'],
  ['iban', { iban: IBAN.slice(0, 20) + String((Number(IBAN[20]) + 1) % 10) }, 'IBAN check digits are invalid'],
  ['contactPerson', { contactPerson: 'x'.repeat(256) }, 'At most 255 characters'],
  ['phone', { phone: '1'.repeat(51) }, 'At most 50 characters'],
];
