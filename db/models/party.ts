import { withAudit } from './base.ts';
import { char, day, defaulted, integer, money, nullable, oneOf, tableModel, text, type Columns } from './columns.ts';
import { RISK_CATEGORIES } from './enums.ts';

/**
 * The columns clients and customers share (docs/domain-model.md): both are companies known by their OIB, with an
 * address, a bank account, a risk rating and a credit limit against the advances outstanding on their invoices.
 * Client and Customer extend partyModel with their own columns.
 */
function withPartyColumns<Own extends Columns>(columns: Own) {
  return withAudit({
    companyName: text,
    oib: char(11),
    address: nullable(text),
    city: nullable(text),
    postalCode: nullable(text),
    country: defaulted(text),
    email: nullable(text),
    phone: nullable(text),
    iban: nullable(text),
    registrationNumber: nullable(text),
    riskCategory: nullable(oneOf(RISK_CATEGORIES)),
    riskScore: nullable(integer),
    /** NULL: no limit approved. */
    creditLimit: nullable(money),
    /** The advances outstanding on the party's invoices. */
    usedCredit: defaulted(money),
    foundedOn: nullable(day),
    ...columns,
  });
}

/** The class Client and Customer extend: a table with the party columns, then `own`. */
export function partyModel<Own extends Columns>(table: string, own: Own) {
  return tableModel(table, withPartyColumns(own));
}
