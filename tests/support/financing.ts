import pg from 'pg';
import { inject } from 'vitest';

/**
 * What financing needs besides an approved invoice (app/invoices/eligibility.server.ts):
 * a signed agreement in force for the client and a debtor limit for the customer.
 * For the end-to-end tests against the running app's database, until the demo
 * book seeds its own: a client without an agreement in force gets one on its
 * own advance and fee rate (discount per 30 days, the terms financing used
 * before agreements), a customer without a limit gets `customerLimit` (none
 * with null). What the book already has is kept. Returns the advance rate of
 * the agreement in force.
 */
export async function ensureFinanceable(
  clientId: string,
  customerId?: string,
  options: { customerLimit?: string | null } = {},
): Promise<{ advanceRate: string; feeModel: string; feeRate: string }> {
  const database = new pg.Client(inject('appDatabaseUrl'));
  await database.connect();
  try {
    const today = `(now() AT TIME ZONE 'Europe/Zagreb')::date`;
    const inForce = () =>
      database.query<{ advance_rate: string; fee_model: string; fee_rate: string; in_force: boolean }>(
        `SELECT advance_rate, fee_model, fee_rate, (valid_from <= ${today} AND (valid_until IS NULL OR valid_until >= ${today})) AS in_force
           FROM agreements WHERE client_id = $1 AND signature_status = 'signed' AND effective_from <= ${today}
          ORDER BY effective_from DESC, version DESC LIMIT 1`,
        [clientId],
      );
    let agreement = (await inForce()).rows[0];
    if (!agreement?.in_force) {
      await database.query(
        `INSERT INTO agreements (client_id, number, version, effective_from, valid_from, advance_rate, fee_model, fee_rate, recourse, recourse_days,
                                 max_tenor_days, concentration_limit, signature_status, signed_on)
         SELECT c.id, 'E2E-' || left(c.id::text, 8), coalesce((SELECT max(version) FROM agreements WHERE client_id = c.id), 0) + 1,
                ${today} - 30, ${today} - 30, c.advance_rate, 'discount_30', c.fee_rate, true, 60, 365, 100, 'signed', ${today} - 30
           FROM clients c WHERE c.id = $1`,
        [clientId],
      );
      agreement = (await inForce()).rows[0];
    }
    const customerLimit = options.customerLimit === undefined ? '10000000.00' : options.customerLimit;
    if (customerId && customerLimit !== null) {
      await database.query('UPDATE customers SET credit_limit = $2 WHERE id = $1 AND credit_limit IS NULL', [customerId, customerLimit]);
    }
    return { advanceRate: agreement.advance_rate, feeModel: agreement.fee_model, feeRate: agreement.fee_rate };
  } finally {
    await database.end();
  }
}

/** Sets a customer's debtor limit in the running app's database. */
export async function setDebtorLimit(customerId: string, limit: string | null): Promise<void> {
  const database = new pg.Client(inject('appDatabaseUrl'));
  await database.connect();
  try {
    await database.query('UPDATE customers SET credit_limit = $2 WHERE id = $1', [customerId, limit]);
  } finally {
    await database.end();
  }
}
