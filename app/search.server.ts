import { QueryTypes } from 'sequelize';
import { getSequelize } from '../db/connection.ts';
import type { Invoice } from '../db/models/index.ts';
import type { RowOf } from '../db/models/rows.ts';

const PER_KIND = 10;

export interface SearchResults {
  clients: Array<{ id: string; companyName: string; oib: string; city: string | null }>;
  customers: Array<{ id: string; companyName: string; oib: string; city: string | null }>;
  invoices: Array<{ id: string; invoiceNumber: string; clientName: string; amount: string; currency: string; status: RowOf<typeof Invoice>['status'] }>;
}

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%term%` for ILIKE with the user's own % and _ taken literally. */
export function containsPattern(term: string) {
  return `%${escapeLike(term)}%`;
}

/**
 * Whether pg_trgm finds a trigram to look for in `%term%`: a word (a run of
 * letters and digits) counts its characters, two more when a non-word
 * character precedes it within the term and one more when one follows it (the
 * pattern's % ends add none); one word of three makes a trigram.
 */
function hasTrigram(term: string): boolean {
  for (const word of term.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = word.index;
    const end = start + word[0].length;
    if ([...word[0]].length + (start > 0 ? 2 : 0) + (end < term.length ? 1 : 0) >= 3) return true;
  }
  return false;
}

/**
 * Invoices by number or description, case-insensitive: a number containing
 * the term anywhere ('0042' finds 'R-2025-00421'), or a description
 * containing it. PostgreSQL finds the candidates through two indexes: the
 * number's 6-character pieces (migration 2026.11.25T05.00.00.invoice-number-search;
 * a trigram scan of fragments most numbers share, such as "R-2025-00", reads
 * half of a million-invoice book) and the description's trigrams. For a term
 * of up to 6 characters the pieces answer exactly; a longer one needs the
 * pieces that cover it (one every 6 characters and the last; migration
 * 2026.11.28T19.00.00.search-index-upkeep), and the second condition keeps
 * the numbers that hold the term itself (strpos of the lower-cased texts, as
 * ILIKE compares, without a pattern to match; the planner drops the
 * condition when the term is exact). The order
 * within the first OR matters: PostgreSQL rechecks the rows the (inexact)
 * trigram index finds against it, and the description answers that without
 * computing the row's pieces.
 */
export function invoiceSearchCondition(alias: string, term: string, replacements: Record<string, unknown>): string {
  replacements.numberTerm = term;
  replacements.pattern = containsPattern(term);
  // Without a trigram (`12`, `č`, `---`), the description's index holds nothing to narrow by: PostgreSQL read all of it
  // (a million entries, 5–7 s on the bench book) before checking every row anyway. The whole table is read instead, the
  // same comparison made by strpos without computing any row's pieces (~1 s there; docs/benchmarks.md).
  if (!hasTrigram(term)) {
    return `(strpos(lower(${alias}.description), lower(:numberTerm)) > 0 OR strpos(lower(${alias}.invoice_number), lower(:numberTerm)) > 0)`;
  }
  // Most candidates the pieces find do hold the term, and lower-casing each one's number cost a third of the query
  // (R-2025-000: 3,654 candidates, 1.9 of 4.0 ms). A number holding the term as typed, or upper-cased (how numbers are
  // written), holds it lower-cased too, as a libc locale (the embedded server's and the image's) lowers letter by
  // letter; the upper-cased form only where lowering it gives the term's own lowering back (not for a dotless ı,
  // which upper-cases to I). So those two cheap comparisons come first and find nothing ILIKE would not.
  const number = `${alias}.invoice_number`;
  const numberHoldsTerm =
    `strpos(${number}, :numberTerm) > 0` +
    ` OR (lower(upper(:numberTerm)) = lower(:numberTerm) AND strpos(${number}, upper(:numberTerm)) > 0)` +
    ` OR strpos(lower(${number}), lower(:numberTerm)) > 0`;
  return (
    `((${alias}.description ILIKE :pattern OR invoice_number_grams(${number}) @@ invoice_number_fragment(:numberTerm))` +
    ` AND (invoice_number_fragment_is_exact(:numberTerm) OR ${numberHoldsTerm} OR ${alias}.description ILIKE :pattern))`
  );
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
  const invoiceReplacements: Record<string, unknown> = { limit: PER_KIND };
  const [clients, customers, invoices] = await Promise.all([
    party('clients'),
    party('customers'),
    sequelize.query<SearchResults['invoices'][number]>(
      // The matches first (MATERIALIZED), then the newest: walking the date index past a million rows for a rare match is not an option.
      `WITH matches AS MATERIALIZED (SELECT i.id, i.created_at FROM invoices i WHERE ${invoiceSearchCondition('i', term, invoiceReplacements)})
       SELECT i.id, i.invoice_number AS "invoiceNumber", c.company_name AS "clientName", i.amount, i.currency, i.status
         FROM (SELECT id, created_at FROM matches ORDER BY created_at DESC, id DESC LIMIT :limit) m
         JOIN invoices i ON i.id = m.id JOIN clients c ON c.id = i.client_id
        ORDER BY m.created_at DESC, m.id DESC`,
      { replacements: invoiceReplacements, type: QueryTypes.SELECT },
    ),
  ]);
  return { clients, customers, invoices };
}
