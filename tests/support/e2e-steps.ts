import { expect } from 'vitest';
import { oibCheckDigit } from '../../app/utils/validation.ts';
import type { ApiClient } from './api-client.ts';
import type { DemoClient } from './demo-clients.ts';

/**
 * What several end-to-end files share: days, identifiers, waiting for the
 * worker, and an invoice added and approved over the API. Not a test file
 * (tests/vitest.config.ts runs *.test.ts only).
 */

/** The day `days` after today in Zagreb, as YYYY-MM-DD (the app's business day when none is set). */
export function zagrebDay(days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A valid OIB at random, so it meets no demo party and no other file's. */
export function randomOib(): string {
  const first10 = String(Math.floor(Math.random() * 9e9) + 1e9);
  return `${first10}${oibCheckDigit(first10)}`;
}

/** Polls `read` until it gives a value (the worker mails and runs workflow steps in the background). */
export async function poll<T>(what: string, read: () => Promise<T | undefined> | T | undefined, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** A demo client that can take an invoice (active, with an IBAN and more than 50,000.00 of its limit free) and a debtor not blocked. */
export async function clientAndDebtor(admin: ApiClient) {
  const clients = (await admin.get('/api/clients?limit=1000')).json as unknown as DemoClient[];
  const client = clients.find((c) => c.status === 'active' && c.iban && c.creditLimit !== null && c.creditLimit - c.usedCredit > 50_000);
  const customer = ((await admin.get('/api/customers?limit=1000')).json as Array<{ id: string; companyName: string; accountBlocked: boolean }>).find((c) => !c.accountBlocked);
  expect(client, 'a demo client that can take an invoice').toBeDefined();
  expect(customer, 'a demo debtor not blocked').toBeDefined();
  return { client: client!, customer: customer! };
}

/**
 * An invoice in EUR added and verified by the admin, then approved by
 * `approver` (four eyes: another user than the verifier): its id. Issued
 * today and due in 45 days unless the test says otherwise.
 */
export async function approvedInvoice(
  admin: ApiClient,
  approver: ApiClient,
  invoice: { clientId: string; customerId: string; invoiceNumber: string; amount: number; description: string; issueDate?: string; dueDate?: string },
): Promise<string> {
  const created = await admin.post('/api/invoices', { issueDate: zagrebDay(0), dueDate: zagrebDay(45), currency: 'EUR', ...invoice });
  expect(created.status, created.text).toBe(201);
  const id = String(created.json.id);
  expect((await admin.put(`/api/invoices/${id}/verify`)).status).toBe(200);
  expect((await approver.put(`/api/invoices/${id}/approve`)).status).toBe(200);
  return id;
}
