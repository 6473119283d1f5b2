import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { isValidEmail } from '../utils/validation.ts';
import { UBL_MESSAGES, type UblInvoice, type UblParty } from './ubl-constants.ts';
import type { Client, Customer } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import type { PartyCompanyDto, PartyContactDto } from '../clients/party.server.ts';

/**
 * The e-invoice against the book: the seller's OIB must be the chosen
 * client's, the buyer's OIB an existing customer's, or a new customer is
 * proposed from the buyer's data.
 */

/** A new customer as the buyer's data describe it: a party's company (no id yet) and its e-mail. */
export type ProposedCustomer = Omit<PartyCompanyDto, 'id'> & Pick<PartyContactDto, 'email'>;

export interface UblPartyMatch {
  client: { id: string; companyName: string; oib: string };
  /** The existing customer whose OIB is the buyer's, or null. */
  customer: { id: string; companyName: string; oib: string; accountBlocked: boolean } | null;
  /** When no customer has the buyer's OIB: what the caller may create from the XML. */
  proposedCustomer: ProposedCustomer | null;
}

const COUNTRY_NAMES: Record<string, string> = {
  HR: 'Croatia',
  SI: 'Slovenia',
  AT: 'Austria',
  DE: 'Germany',
  IT: 'Italy',
  HU: 'Hungary',
  BA: 'Bosnia and Herzegovina',
  RS: 'Serbia',
};

/** The buyer's data as a customer creation input (fields the creation schema would refuse are left out). */
export function proposeCustomer(buyer: UblParty): ProposedCustomer {
  const postalCode = buyer.address.postalCode && /^\d{5}$/.test(buyer.address.postalCode) ? buyer.address.postalCode : null;
  const code = buyer.address.countryCode?.toUpperCase() ?? 'HR';
  return {
    companyName: (buyer.name ?? '').slice(0, 255),
    oib: buyer.oib ?? '',
    address: buyer.address.street?.slice(0, 255) ?? null,
    city: buyer.address.city?.slice(0, 255) ?? null,
    postalCode,
    country: COUNTRY_NAMES[code] ?? code,
    email: buyer.email && isValidEmail(buyer.email.toLowerCase()) ? buyer.email.toLowerCase() : null,
  };
}

/**
 * The seller must be the client the invoice is submitted for (its OIB equals
 * the client's: a client can only sell its own receivables); the buyer is
 * looked up by OIB. Throws 400 on clientId when the client does not exist,
 * 400 naming both OIBs when the seller is someone else.
 */
export async function matchUblParties(invoice: Pick<UblInvoice, 'seller' | 'buyer'>, clientId: string, options: { transaction?: Transaction } = {}): Promise<UblPartyMatch> {
  const client = /^[0-9a-f-]{36}$/i.test(clientId)
    ? await selectOne<RowOf<typeof Client, 'id' | 'company_name' | 'oib'>>(
        'SELECT id, company_name, oib FROM clients WHERE id = :clientId',
        { clientId },
        { transaction: options.transaction },
      )
    : null;
  if (!client) throw apiError(400, 'errors.parties.clientNotFound', { errors: { clientId: ['errors.parties.clientNotFound'] } });
  if (invoice.seller.oib !== client.oib) {
    const refusal = { code: UBL_MESSAGES.sellerNotClient, params: { sellerOib: String(invoice.seller.oib), clientOib: client.oib, name: client.company_name } };
    throw apiError(400, refusal.code, { params: refusal.params, errors: { xml: [refusal] } });
  }
  const customer = await selectOne<RowOf<typeof Customer, 'id' | 'company_name' | 'oib' | 'account_blocked'>>(
    'SELECT id, company_name, oib, account_blocked FROM customers WHERE oib = :oib',
    { oib: invoice.buyer.oib },
    { transaction: options.transaction },
  );
  return {
    client: { id: client.id, companyName: client.company_name, oib: client.oib },
    customer: customer ? { id: customer.id, companyName: customer.company_name, oib: customer.oib, accountBlocked: customer.account_blocked } : null,
    proposedCustomer: customer ? null : proposeCustomer(invoice.buyer),
  };
}
