import { QueryTypes } from 'sequelize';
import { getSequelize } from '../db/connection.ts';

const PER_KIND = 10;

export interface SearchResults {
  clients: Array<{ id: string; companyName: string; oib: string; city: string | null }>;
  customers: Array<{ id: string; companyName: string; oib: string; city: string | null }>;
  invoices: Array<{ id: string; invoiceNumber: string; clientName: string; amount: string; currency: string; status: string }>;
}

/** `%term%` for ILIKE with the user's own % and _ taken literally. */
export function containsPattern(term: string) {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The header's search box: clients and customers by name, OIB or email,
 * invoices by number or description — the trigram indexes serve the ILIKEs.
 */
export async function searchEverything(q: string): Promise<SearchResults> {
  const term = q.trim().slice(0, 100);
  if (term.length < 2) return { clients: [], customers: [], invoices: [] };
  const sequelize = getSequelize();
  const replacements = { pattern: containsPattern(term), prefix: `${term.replace(/\D/g, '')}%`, limit: PER_KIND };
  const party = (table: string) =>
    sequelize.query<{ id: string; companyName: string; oib: string; city: string | null }>(
      `SELECT id, company_name AS "companyName", oib, city FROM ${table}
        WHERE company_name ILIKE :pattern OR email ILIKE :pattern OR (:prefix <> '%' AND oib LIKE :prefix)
        ORDER BY company_name LIMIT :limit`,
      { replacements, type: QueryTypes.SELECT },
    );
  const [clients, customers, invoices] = await Promise.all([
    party('clients'),
    party('customers'),
    sequelize.query<SearchResults['invoices'][number]>(
      `SELECT i.id, i.invoice_number AS "invoiceNumber", c.company_name AS "clientName", i.amount, i.currency, i.status
         FROM invoices i JOIN clients c ON c.id = i.client_id
        WHERE i.invoice_number ILIKE :pattern OR i.description ILIKE :pattern
        ORDER BY i.created_at DESC LIMIT :limit`,
      { replacements, type: QueryTypes.SELECT },
    ),
  ]);
  return { clients, customers, invoices };
}
