import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { execute } from '../db.server.ts';
import { createAgreement, insertClient, insertCustomer, insertInvoice, zagrebDay } from '../../tests/factories.ts';
import { financePreviews } from './page.server.ts';

/** The list's 'Financiraj' confirmation: each approved invoice's figures on its own client's agreement in force today. */
describe('the finance previews of a page of invoices', () => {
  it("read each client's agreement in force, charge the documentation fee only before a first financing, and preview nothing without an agreement", async () => {
    const terms = { advanceRate: '85.00', feeRate: '1.500', documentationFee: '100.00', adminFee: '0.00', minimumFee: '0.00' } as const;
    const firstTime = await insertClient({ agreement: terms });
    const financedBefore = await insertClient({ agreement: terms });
    const withoutAgreement = await insertClient({ agreement: false });
    // A second version signed to start next month does not apply today.
    const revised = await insertClient({ agreement: { ...terms, advanceRate: '70.00' } });
    await createAgreement(revised.id, { ...terms, advanceRate: '90.00', effectiveFrom: zagrebDay(30) });

    const customer = await insertCustomer();
    const earlier = await insertInvoice({ clientId: financedBefore.id, customerId: customer.id, amount: '1000.00', dueDate: zagrebDay(10) });
    await execute(`UPDATE invoices SET agreement_id = (SELECT id FROM agreements WHERE client_id = :clientId) WHERE id = :id`, { clientId: financedBefore.id, id: earlier });

    // 60 days to the due date: two started 30-day periods of 1.5 % on 10,000.00.
    const approved = (clientId: string) => ({ id: randomUUID(), status: 'approved' as const, amount: 10_000, clientId, dueDate: zagrebDay(60) });
    const invoices = [approved(firstTime.id), approved(financedBefore.id), approved(withoutAgreement.id), approved(revised.id), approved(firstTime.id)];
    const pending = { ...approved(firstTime.id), status: 'pending' as const };

    const previews = await financePreviews([...invoices, pending]);
    expect(previews).toEqual({
      [invoices[0].id]: { factorAmount: 8500, factorFee: 400 },
      [invoices[1].id]: { factorAmount: 8500, factorFee: 300 },
      [invoices[3].id]: { factorAmount: 7000, factorFee: 400 },
      [invoices[4].id]: { factorAmount: 8500, factorFee: 400 },
    });
  });
});
