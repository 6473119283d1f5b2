import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { boundLockWaits } from '../../db/connection.ts';
import { refusalIn } from '../auth/test-helpers.server.ts';
import { isLockNotAvailable, selectOne } from '../db.server.ts';
import { unexpectedErrorResponse } from '../utils/api.server.ts';
import { approveInvoice, verifyInvoice } from './invoice-decisions.server.ts';
import { financeInvoice } from './financing.server.ts';
import { handleDecision, type DecisionRefusal } from './page.server.ts';
import { financingParties, newInvoice } from '../../tests/factories.ts';

/**
 * The web process bounds its lock waits (db/connection.ts boundLockWaits, DB_LOCK_TIMEOUT_MS): a financing
 * that finds its client's row held by another change for longer is refused as busy and leaves the book as it was,
 * rather than holding one of the process's few connections for as long as the other change runs.
 */
const BOUND_MS = 400;

const holders: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((holder) => holder.end()));
  boundLockWaits(undefined);
});

/** Another change to the client: its row held in an open transaction of a connection of its own. */
async function holdClientRow(clientId: string): Promise<pg.Client> {
  const holder = new pg.Client(process.env.DATABASE_URL);
  holders.push(holder);
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT id FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
  return holder;
}

/** What a financing changes: the invoice, the client's used credit, its ledger, the activity log. */
async function bookOf(invoiceId: string, clientId: string) {
  return selectOne<{ status: string; factor_amount: string | null; used_credit: string; ledger_entries: number; activity_rows: number }>(
    `SELECT i.status, i.factor_amount, c.used_credit,
            (SELECT count(*)::int FROM client_ledger l WHERE l.client_id = c.id) AS ledger_entries,
            (SELECT count(*)::int FROM activity_logs a WHERE a.entity_id = i.id) AS activity_rows
       FROM invoices i JOIN clients c ON c.id = i.client_id
      WHERE i.id = :invoiceId AND c.id = :clientId`,
    { invoiceId, clientId },
  );
}

async function approvedInvoice() {
  const { b, client, customer } = await financingParties();
  const invoice = await newInvoice(b.user, client.id, customer.id, { amount: '2500.00' });
  await verifyInvoice({ actor: b.manager, id: invoice.id });
  await approveInvoice({ actor: b.manager2, id: invoice.id });
  return { b, clientId: client.id, invoiceId: invoice.id };
}

describe('a financing whose client another change holds', () => {
  it('is refused as busy past the bound, changes nothing, and goes through once the other change is done', async () => {
    boundLockWaits(BOUND_MS);
    const { b, clientId, invoiceId } = await approvedInvoice();
    const before = await bookOf(invoiceId, clientId);
    expect(before).toMatchObject({ status: 'approved', factor_amount: null, used_credit: '0.00' });

    const holder = await holdClientRow(clientId);
    const started = performance.now();
    const error = await financeInvoice({ actor: b.manager, id: invoiceId, ip: '10.0.0.9' }).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS - 20);
    expect(isLockNotAvailable(error)).toBe(true);
    const answer = unexpectedErrorResponse(error);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toBe('5');
    expect(await answer.json()).toMatchObject({ code: 'errors.api.busy' });
    expect(await bookOf(invoiceId, clientId)).toEqual(before);

    await holder.query('ROLLBACK');
    const financed = await financeInvoice({ actor: b.manager, id: invoiceId, ip: '10.0.0.9' });
    expect(financed).toMatchObject({ status: 'financed', factorAmount: 2000 });
    expect(await bookOf(invoiceId, clientId)).toMatchObject({ status: 'financed', factor_amount: '2000.00', used_credit: '2000.00' });
  });

  it('is refused in the page’s form as busy (503), in the reader’s language, changing nothing', async () => {
    boundLockWaits(BOUND_MS);
    const { b, clientId, invoiceId } = await approvedInvoice();
    const before = await bookOf(invoiceId, clientId);
    await holdClientRow(clientId);
    const form = new FormData();
    form.set('intent', 'finance');
    form.set('id', invoiceId);
    const response = await handleDecision(form, { actor: b.manager, ip: null, back: '/invoices' });
    expect(response.status).toBe(503);
    const refusal = (await response.json()) as DecisionRefusal;
    expect(refusal).toMatchObject({ intent: 'finance', id: invoiceId, status: 503 });
    expect(await refusalIn('en', refusal.message)).toBe('Another change to the same record is still in progress and nothing was changed; please try again in a moment');
    expect(await refusalIn('hr', refusal.message)).toBe('Druga promjena istog zapisa još je u tijeku pa ništa nije promijenjeno; pokušajte ponovno za trenutak');
    expect(await bookOf(invoiceId, clientId)).toEqual(before);
  });

  it('waits for a change that ends within the bound, and finances as usual', async () => {
    boundLockWaits(BOUND_MS);
    const { b, clientId, invoiceId } = await approvedInvoice();
    const holder = await holdClientRow(clientId);
    const release = new Promise((resolve) => setTimeout(resolve, BOUND_MS / 4)).then(() => holder.query('COMMIT'));
    const financed = await financeInvoice({ actor: b.manager, id: invoiceId });
    await release;
    expect(financed.status).toBe('financed');
    expect(await bookOf(invoiceId, clientId)).toMatchObject({ status: 'financed', used_credit: '2000.00' });
  });
});
