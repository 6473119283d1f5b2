import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { selectOne, selectRows } from '../db.server.ts';
import { action as adjustmentsAction, loader as adjustmentsLoader } from '../routes/api.clients.$clientId.ledger-adjustments.ts';
import { action as approveAction } from '../routes/api.ledger-adjustments.$id.approve.ts';
import { action as rejectAction } from '../routes/api.ledger-adjustments.$id.reject.ts';
import { toCents } from '../utils/money.ts';
import { actorOf, createTestUser, insertClient, insertCustomer, insertInvoice, zagrebDay } from '../../tests/factories.ts';
import { approveAdjustment, listAdjustments, rejectAdjustment, requestAdjustment } from './adjustments.server.ts';
import { fourEyesAmount, setFourEyesAmount } from './book-settings.server.ts';

const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: { clientIp: '127.0.0.1' } });

async function staff() {
  const [user, manager, otherManager, admin] = await Promise.all([
    createTestUser({ role: 'user' }),
    createTestUser({ role: 'manager' }),
    createTestUser({ role: 'manager' }),
    createTestUser({ role: 'admin' }),
  ]);
  return { user: actorOf(user), manager: actorOf(manager), otherManager: actorOf(otherManager), admin: actorOf(admin) };
}

const entriesOf = (adjustmentId: string) =>
  selectRows<{ kind: string; amount: string; invoice_id: string | null; created_by: string | null; description: string }>(
    'SELECT kind, amount, invoice_id, created_by, description FROM client_ledger WHERE adjustment_id = :adjustmentId',
    { adjustmentId },
  );
const balanceOf = async (clientId: string) =>
  toCents((await selectOne<{ b: string }>('SELECT coalesce(sum(amount), 0) AS b FROM client_ledger WHERE client_id = :clientId', { clientId }))!.b);

describe('manual adjustments', () => {
  it('posts an adjustment up to the four-eyes amount at once, approved by its requester, and logs it', async () => {
    const { manager } = await staff();
    const client = await insertClient();
    expect(await fourEyesAmount()).toBe('1000.00');
    const adjustment = await requestAdjustment({ actor: manager, clientId: client.id, input: { amount: '-1000.00', reason: 'Povrat više naplaćene naknade' }, ip: '10.0.0.1' });
    expect(adjustment).toMatchObject({ status: 'approved', amount: -1000, requestedById: manager.id, decidedById: manager.id });
    expect(adjustment.entryNumber).toBeGreaterThan(0);
    expect(await entriesOf(adjustment.id)).toEqual([
      { kind: 'adjustment', amount: '-1000.00', invoice_id: null, created_by: manager.id, description: 'Povrat više naplaćene naknade' },
    ]);
    expect(await balanceOf(client.id)).toBe(-100000);
    const [log] = await activityRows('ledger_adjustment_posted', adjustment.id);
    expect(log).toMatchObject({ user_id: manager.id, ip_address: '10.0.0.1', details: { amount: '-1000.00', clientId: client.id } });
  });

  it('keeps one above the amount pending until another manager approves it; the requester is refused 403', async () => {
    const { manager, otherManager } = await staff();
    const client = await insertClient();
    const customer = await insertCustomer();
    const invoiceId = await insertInvoice({ clientId: client.id, customerId: customer.id, amount: '5000.00', dueDate: zagrebDay(30) });
    const adjustment = await requestAdjustment({ actor: manager, clientId: client.id, input: { amount: 1000.01, reason: 'Trošak opomene', invoiceId } });
    expect(adjustment).toMatchObject({ status: 'pending', amount: 1000.01, decidedById: null, entryNumber: null, invoiceId });
    expect(await entriesOf(adjustment.id)).toEqual([]);
    expect(await activityRows('ledger_adjustment_requested', adjustment.id)).toHaveLength(1);

    expect((await apiFailure(approveAdjustment({ actor: manager, id: adjustment.id }))).status).toBe(403);
    expect((await apiFailure(rejectAdjustment({ actor: manager, id: adjustment.id, reason: 'Ne' }))).status).toBe(403);
    expect(await entriesOf(adjustment.id)).toEqual([]);

    const approved = await approveAdjustment({ actor: otherManager, id: adjustment.id, ip: '10.0.0.2' });
    expect(approved).toMatchObject({ status: 'approved', decidedById: otherManager.id });
    expect(await entriesOf(adjustment.id)).toEqual([{ kind: 'adjustment', amount: '1000.01', invoice_id: invoiceId, created_by: otherManager.id, description: 'Trošak opomene' }]);
    expect(await activityRows('ledger_adjustment_approved', adjustment.id)).toHaveLength(1);
    // Decided once: a second decision is a 409 and posts nothing more.
    const third = actorOf(await createTestUser({ role: 'manager' }));
    expect((await apiFailure(approveAdjustment({ actor: third, id: adjustment.id }))).status).toBe(409);
    expect(await entriesOf(adjustment.id)).toHaveLength(1);
  });

  it('rejects with a reason and posts nothing', async () => {
    const { manager, otherManager } = await staff();
    const client = await insertClient();
    const adjustment = await requestAdjustment({ actor: manager, clientId: client.id, input: { amount: '-2500', reason: 'Otpis' } });
    expect((await apiFailure(rejectAdjustment({ actor: otherManager, id: adjustment.id, reason: '  ' }))).status).toBe(400);
    const rejected = await rejectAdjustment({ actor: otherManager, id: adjustment.id, reason: 'Nema dokumentacije' });
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'Nema dokumentacije', decidedById: otherManager.id });
    expect(await entriesOf(adjustment.id)).toEqual([]);
    expect(await balanceOf(client.id)).toBe(0);
    expect(await activityRows('ledger_adjustment_rejected', adjustment.id)).toHaveLength(1);
    expect((await apiFailure(approveAdjustment({ actor: otherManager, id: adjustment.id }))).status).toBe(409);
  });

  it('follows the book setting, which only an admin changes, validated and logged', async () => {
    const { manager, otherManager, admin } = await staff();
    const client = await insertClient();
    expect((await apiFailure(setFourEyesAmount({ actor: manager, amount: '10.00' }))).status).toBe(403);
    expect((await apiFailure(setFourEyesAmount({ actor: admin, amount: '-1' }))).status).toBe(400);
    expect((await apiFailure(setFourEyesAmount({ actor: admin, amount: '1.234' }))).status).toBe(400);
    expect(await setFourEyesAmount({ actor: admin, amount: '10', ip: '10.0.0.3' })).toBe('10.00');
    const [log] = await activityRows('book_setting_changed');
    expect(log).toMatchObject({ user_id: admin.id, details: { key: 'ledger_adjustment_four_eyes_above', before: '1000.00', after: '10.00' } });
    expect((await requestAdjustment({ actor: manager, clientId: client.id, input: { amount: '10.00', reason: 'a' } })).status).toBe('approved');
    expect((await requestAdjustment({ actor: manager, clientId: client.id, input: { amount: '-10.01', reason: 'b' } })).status).toBe('pending');
    await setFourEyesAmount({ actor: admin, amount: '0' });
    expect((await requestAdjustment({ actor: otherManager, clientId: client.id, input: { amount: '0.01', reason: 'c' } })).status).toBe('pending');
    await setFourEyesAmount({ actor: admin, amount: '1000.00' });
  });

  it('refuses a user (403), a zero or bad amount (400), an invoice of another client (400) and an unknown client (404)', async () => {
    const { user, manager } = await staff();
    const client = await insertClient();
    const other = await insertClient();
    const customer = await insertCustomer();
    const foreign = await insertInvoice({ clientId: other.id, customerId: customer.id, amount: '100.00', dueDate: zagrebDay(30) });
    expect((await apiFailure(requestAdjustment({ actor: user, clientId: client.id, input: { amount: '1', reason: 'x' } }))).status).toBe(403);
    for (const amount of ['0', '0.00', '1,5', '1.234', 'abc', '']) {
      expect((await apiFailure(requestAdjustment({ actor: manager, clientId: client.id, input: { amount, reason: 'x' } }))).status).toBe(400);
    }
    const wrongInvoice = await apiFailure(requestAdjustment({ actor: manager, clientId: client.id, input: { amount: '1', reason: 'x', invoiceId: foreign } }));
    expect(wrongInvoice.status).toBe(400);
    expect(wrongInvoice.body.errors).toHaveProperty('invoiceId');
    expect((await apiFailure(requestAdjustment({ actor: manager, clientId: '00000000-0000-4000-8000-000000000000', input: { amount: '1', reason: 'x' } }))).status).toBe(404);
    expect((await listAdjustments(client.id)).total).toBe(0);
  });
});

describe('the adjustment API', () => {
  it('creates (201), lists with X-Total-Count, approves and rejects through the routes', async () => {
    const { manager, otherManager, user } = await staff();
    const client = await insertClient();
    const [managerCookie, otherCookie, userCookie] = await Promise.all([signedInCookie(manager.id), signedInCookie(otherManager.id), signedInCookie(user.id)]);
    const path = `/api/clients/${client.id}/ledger-adjustments`;
    const small = await adjustmentsAction(ctx(jsonRequest(path, { amount: 12.5, reason: 'Zaokruženje' }, managerCookie), { clientId: client.id }));
    expect(small.status).toBe(201);
    expect(await small.json()).toMatchObject({ status: 'approved', amount: 12.5 });
    const big = await adjustmentsAction(ctx(jsonRequest(path, { amount: -5000, reason: 'Otpis potraživanja' }, managerCookie), { clientId: client.id }));
    const bigBody = await big.json();
    expect(bigBody).toMatchObject({ status: 'pending', amount: -5000 });
    const other = await adjustmentsAction(ctx(jsonRequest(path, { amount: 2000, reason: 'Trošak' }, managerCookie), { clientId: client.id }));
    const otherBody = await other.json();

    const forbidden = await apiFailure(approveAction(ctx(jsonRequest(`/api/ledger-adjustments/${bigBody.id}/approve`, undefined, managerCookie), { id: bigBody.id })));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'ledger.errors.ownRequest' });
    expect((await apiFailure(approveAction(ctx(jsonRequest(`/api/ledger-adjustments/${bigBody.id}/approve`, undefined, userCookie), { id: bigBody.id })))).status).toBe(403);
    const approved = await approveAction(ctx(jsonRequest(`/api/ledger-adjustments/${bigBody.id}/approve`, undefined, otherCookie), { id: bigBody.id }));
    expect(await approved.json()).toMatchObject({ status: 'approved' });
    const rejected = await rejectAction(ctx(jsonRequest(`/api/ledger-adjustments/${otherBody.id}/reject`, { reason: 'Ne' }, otherCookie), { id: otherBody.id }));
    expect(await rejected.json()).toMatchObject({ status: 'rejected', rejectionReason: 'Ne' });

    const list = await adjustmentsLoader(ctx(getRequest(`${path}?status=approved`, userCookie), { clientId: client.id }));
    expect(list.headers.get('X-Total-Count')).toBe('2');
    expect((await list.json()).map((row: { amount: number }) => row.amount).sort()).toEqual([-5000, 12.5]);
    expect((await apiFailure(adjustmentsLoader(ctx(getRequest(`${path}?status=odd`, userCookie), { clientId: client.id })))).status).toBe(400);
    expect(await balanceOf(client.id)).toBe(1250 - 500000);
  });
});
