import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { readDocumentFile } from '../documents/documents.server.ts';
import { action as listAction, loader as listLoader } from '../routes/api.clients.$clientId.agreements.ts';
import { action as reviseAction } from '../routes/api.agreements.$id.ts';
import { action as markSignedAction } from '../routes/api.agreements.$id.mark-signed.ts';
import { action as sendAction } from '../routes/api.agreements.$id.send-for-signature.ts';
import { addDays, businessDay } from '../utils/business-time.ts';
import { actorOf, createTestUser, insertClient, staff } from '../../tests/factories.ts';
import { pdfText } from '../../tests/support/pdf-text.ts';
import { createAgreement, listAgreements, markAgreementSigned, reviseAgreement, sendAgreementForSignature } from './agreements.server.ts';
import { agreementInForce } from './in-force.server.ts';
import { agreementTermsSchema } from './schemas.ts';

const today = businessDay();
const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: { clientIp: '127.0.0.1' } });

let sequence = 0;
/** Terms as the form or the API sends them: interest actual/365 with a minimum fee and recourse. */
function terms(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    number: `UF-2026-${String(sequence).padStart(4, '0')}-${Math.random().toString(36).slice(2, 6)}`,
    effectiveFrom: addDays(today, -30),
    advanceRate: 85,
    feeModel: 'interest_365',
    feeRate: '9.5',
    minimumFee: 50,
    adminFee: '12.50',
    documentationFee: 100,
    recourse: true,
    recourseDays: 60,
    maxTenorDays: 60,
    disclosed: true,
    ...overrides,
  };
}

const rowOf = (id: string) =>
  selectOne<{ version: number; signature_status: string; advance_rate: string; fee_rate: string; updated_at: Date; document_id: string | null }>(
    `SELECT version, signature_status, advance_rate, fee_rate, updated_at, document_id FROM agreements WHERE id = :id`,
    { id },
  );

describe('agreement versions', () => {
  it('creates version 1 unsigned with its PDF among the client documents, and no version is in force until signed', async () => {
    const manager = await staff('manager');
    const client = await insertClient({ agreement: false, email: 'ured@klijent.hr' });
    const created = await createAgreement({ actor: manager, clientId: client.id, input: terms({ number: 'UF-2026-0001' }), ip: '10.0.0.5' });
    expect(created).toMatchObject({
      clientId: client.id,
      number: 'UF-2026-0001',
      version: 1,
      effectiveFrom: addDays(today, -30),
      validFrom: addDays(today, -30),
      validUntil: null,
      advanceRate: 85,
      feeModel: 'interest_365',
      feeRate: 9.5,
      minimumFee: 50,
      adminFee: 12.5,
      documentationFee: 100,
      recourse: true,
      recourseDays: 60,
      maxTenorDays: 60,
      disclosed: true,
      concentrationLimit: 30,
      concentrationThreshold: 0,
      signatureStatus: 'unsigned',
      signedOn: null,
    });
    const document = await selectOne<{ type: string; entity_type: string; entity_id: string; mime_type: string }>(
      `SELECT type, entity_type, entity_id, mime_type FROM documents WHERE id = :id`,
      { id: created.documentId },
    );
    expect(document).toEqual({ type: 'contract', entity_type: 'client', entity_id: client.id, mime_type: 'application/pdf' });
    expect(created.documentUrl).toBe(`/api/documents/${created.documentId}/download`);
    expect(await agreementInForce(client.id, today)).toBeNull();

    const [logged] = await activityRows('agreement_created', created.id);
    expect(logged).toMatchObject({
      user_id: manager.id,
      ip_address: '10.0.0.5',
      details: { clientId: client.id, version: 1, terms: { number: 'UF-2026-0001', feeModel: 'interest_365', minimumFee: '50.00' } },
    });
    expect(
      (await selectOne<{ entity_type: string }>(`SELECT entity_type FROM activity_logs WHERE action = 'agreement_created' AND entity_id = :id`, { id: created.id }))!.entity_type,
    ).toBe('agreement');

    // One agreement (one number) per client: a second create is a 409, and another client may not take the number.
    expect((await apiFailure(createAgreement({ actor: manager, clientId: client.id, input: terms(), ip: null }))).status).toBe(409);
    const other = await insertClient({ agreement: false });
    const taken = await apiFailure(createAgreement({ actor: manager, clientId: other.id, input: terms({ number: 'uf-2026-0001' }), ip: null }));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'agreements.errors.numberTaken' });
    expect((await apiFailure(createAgreement({ actor: manager, clientId: '00000000-0000-4000-8000-000000000000', input: terms(), ip: null }))).status).toBe(404);
  });

  it('edits an unsigned latest version in place, then never changes a signed one: the edit is version n+1 with the same number', async () => {
    const manager = await staff('manager');
    const client = await insertClient({ agreement: false });
    const v1 = await createAgreement({ actor: manager, clientId: client.id, input: terms(), ip: null });
    const edited = await reviseAgreement({ actor: manager, id: v1.id, input: terms({ number: v1.number, advanceRate: '82.5' }), ip: '10.0.0.6' });
    expect(edited).toMatchObject({ id: v1.id, version: 1, advanceRate: 82.5, signatureStatus: 'unsigned' });
    expect(edited.documentId).not.toBe(v1.documentId);
    expect(await activityRows('agreement_updated', v1.id)).toEqual([
      expect.objectContaining({ user_id: manager.id, details: expect.objectContaining({ before: expect.objectContaining({ advanceRate: '85.00' }) }) }),
    ]);

    const signedOn = addDays(today, -20);
    const signed = await markAgreementSigned({ actor: manager, id: v1.id, signedOn, ip: '10.0.0.7' });
    expect(signed).toMatchObject({ signatureStatus: 'signed', signedOn, signedBy: expect.any(String) });
    expect(await activityRows('agreement_signed', v1.id)).toEqual([expect.objectContaining({ details: expect.objectContaining({ signedOn, via: 'manual' }) })]);
    expect((await agreementInForce(client.id, today))?.id).toBe(v1.id);
    const signedRow = await rowOf(v1.id);

    // An edit of the signed version: a new version effective later, same number; the signed row is untouched.
    const later = addDays(today, 10);
    const v2 = await reviseAgreement({
      actor: manager,
      id: v1.id,
      input: terms({ number: v1.number, effectiveFrom: later, advanceRate: 90, feeModel: 'discount_30', feeRate: '1.25' }),
      ip: null,
    });
    expect(v2).toMatchObject({ number: v1.number, version: 2, effectiveFrom: later, advanceRate: 90, feeModel: 'discount_30', signatureStatus: 'unsigned' });
    expect(v2.id).not.toBe(v1.id);
    expect(await rowOf(v1.id)).toEqual(signedRow);
    expect(await activityRows('agreement_revised', v2.id)).toEqual([expect.objectContaining({ details: expect.objectContaining({ previousId: v1.id, version: 2 }) })]);
    expect((await listAgreements(client.id)).map((row) => [row.version, row.signatureStatus])).toEqual([
      [2, 'unsigned'],
      [1, 'signed'],
    ]);

    // Refusals: an older version, an effective day before the latest's, another number, signing twice, a future day.
    expect((await apiFailure(reviseAgreement({ actor: manager, id: v1.id, input: terms({ number: v1.number }), ip: null }))).body).toMatchObject({
      code: 'agreements.errors.notLatest',
    });
    const early = await apiFailure(reviseAgreement({ actor: manager, id: v2.id, input: terms({ number: v1.number, effectiveFrom: addDays(today, -31) }), ip: null }));
    expect(early).toMatchObject({ status: 409, body: { code: 'agreements.errors.effectiveBeforeLatest', errors: { effectiveFrom: [expect.any(String)] } } });
    expect((await apiFailure(reviseAgreement({ actor: manager, id: v2.id, input: terms({ effectiveFrom: later }), ip: null }))).body).toMatchObject({
      code: 'agreements.errors.numberFixed',
    });
    expect((await apiFailure(markAgreementSigned({ actor: manager, id: v1.id, signedOn: today, ip: null }))).status).toBe(409);
    expect((await apiFailure(markAgreementSigned({ actor: manager, id: v2.id, signedOn: addDays(today, 1), ip: null }))).body).toMatchObject({
      code: 'agreements.errors.signedOnFuture',
    });

    // Signed, version 2 takes over from its own day only.
    await markAgreementSigned({ actor: manager, id: v2.id, signedOn: today, ip: null });
    expect((await agreementInForce(client.id, today))?.version).toBe(1);
    expect((await agreementInForce(client.id, later))?.version).toBe(2);
    // The database itself refuses a signed version without its day (the CHECK behind "signed means signed_on").
    await expect(execute(`UPDATE agreements SET signed_on = NULL WHERE id = :id`, { id: v1.id })).rejects.toThrow();
  });

  it('sends a version for signature through the e-signature adapter and signs it when the adapter reports it signed', async () => {
    const manager = await staff('manager');
    const client = await insertClient({ agreement: false, email: 'potpis@klijent.hr' });
    const v1 = await createAgreement({ actor: manager, clientId: client.id, input: terms(), ip: null });
    const failing = { sign: async () => Promise.reject(new Error('provider down')), test: async () => ({ ok: false, message: 'down' }) };
    const down = await apiFailure(sendAgreementForSignature({ actor: manager, id: v1.id, ip: null, adapter: failing }));
    expect(down).toMatchObject({ status: 502, body: { code: 'agreements.errors.signatureFailed', params: { reason: 'provider down' } } });
    expect((await rowOf(v1.id))!.signature_status).toBe('sent');

    const signedAt = new Date();
    const signer: string[] = [];
    const adapter = {
      sign: async (document: { id: string }, who: { email: string }) => {
        signer.push(`${document.id} ${who.email}`);
        return { signatureId: 'sig-1', signedAt };
      },
      test: async () => ({ ok: true, message: 'ok' }),
    };
    const signed = await sendAgreementForSignature({ actor: manager, id: v1.id, ip: '10.0.0.8', adapter });
    expect(signer).toEqual([`${v1.documentId} potpis@klijent.hr`]);
    expect(signed).toMatchObject({ signatureStatus: 'signed', signedOn: businessDay(signedAt) });
    expect(await activityRows('agreement_sent_for_signature', v1.id)).toHaveLength(2);
    expect(await activityRows('agreement_signed', v1.id)).toEqual([expect.objectContaining({ details: expect.objectContaining({ via: 'esignature', signatureId: 'sig-1' }) })]);
    expect((await apiFailure(sendAgreementForSignature({ actor: manager, id: v1.id, ip: null, adapter }))).body).toMatchObject({ code: 'agreements.errors.alreadySigned' });

    const noEmail = await insertClient({ agreement: false, email: null });
    const other = await createAgreement({ actor: manager, clientId: noEmail.id, input: terms(), ip: null });
    expect((await apiFailure(sendAgreementForSignature({ actor: manager, id: other.id, ip: null, adapter }))).body).toMatchObject({ code: 'agreements.errors.noSignerEmail' });
  });

  it('lets managers and up write and everyone signed in read', async () => {
    const [user, manager] = [await staff('user'), await staff('manager')];
    const client = await insertClient({ agreement: false });
    expect((await apiFailure(createAgreement({ actor: user, clientId: client.id, input: terms(), ip: null }))).status).toBe(403);
    const v1 = await createAgreement({ actor: manager, clientId: client.id, input: terms(), ip: null });
    expect((await apiFailure(reviseAgreement({ actor: user, id: v1.id, input: terms({ number: v1.number }), ip: null }))).status).toBe(403);
    expect((await apiFailure(markAgreementSigned({ actor: user, id: v1.id, signedOn: today, ip: null }))).status).toBe(403);
    expect((await apiFailure(sendAgreementForSignature({ actor: user, id: v1.id, ip: null }))).status).toBe(403);
    expect(await listAgreements(client.id)).toHaveLength(1);
    expect(await selectRows(`SELECT 1 FROM activity_logs WHERE entity_type = 'agreement' AND user_id = :id`, { id: user.id })).toEqual([]);
  });
});

describe('agreement terms', () => {
  const parse = (overrides: Record<string, unknown>) => agreementTermsSchema.safeParse(terms(overrides));
  const codeOf = (overrides: Record<string, unknown>) => {
    const result = parse(overrides);
    return result.success ? null : result.error.issues[0].message;
  };

  it('takes each fee model with its rate and refuses anything else', () => {
    for (const feeModel of ['discount_30', 'interest_360', 'interest_365']) expect(parse({ feeModel }).success).toBe(true);
    expect(codeOf({ feeModel: 'interest_366' })).toBe('agreements.errors.feeModelInvalid');
    expect(codeOf({ feeModel: undefined })).toBe('agreements.errors.feeModelInvalid');
    expect(parse({ feeRate: '0' }).success).toBe(true);
    expect(parse({ feeRate: '1.2345' }).data?.feeRate).toBe('1.2345');
    expect(codeOf({ feeRate: '1.23456' })).toBe('agreements.errors.feeRateInvalid');
    expect(codeOf({ feeRate: -1 })).toBe('agreements.errors.feeRateInvalid');
    expect(codeOf({ feeRate: '101' })).toBe('agreements.errors.feeRateInvalid');
  });

  it('holds the rates, fees, days and flags to their ranges', () => {
    expect(parse({ advanceRate: '100' }).data?.advanceRate).toBe('100.00');
    expect(codeOf({ advanceRate: 0 })).toBe('agreements.errors.advanceRateInvalid');
    expect(codeOf({ advanceRate: '80.125' })).toBe('agreements.errors.advanceRateInvalid');
    expect(codeOf({ advanceRate: '100.01' })).toBe('agreements.errors.advanceRateInvalid');
    expect(codeOf({ minimumFee: -1 })).toBe('agreements.errors.feeInvalid');
    expect(codeOf({ adminFee: '1.234' })).toBe('agreements.errors.feeInvalid');
    expect(parse({ minimumFee: '', adminFee: undefined }).data).toMatchObject({ minimumFee: '0.00', adminFee: '0.00' });
    expect(codeOf({ recourseDays: undefined })).toBe('agreements.errors.recourseDaysRequired');
    expect(parse({ recourse: 'false', recourseDays: '' }).data).toMatchObject({ recourse: false, recourseDays: null });
    expect(parse({ recourse: false, recourseDays: 30 }).data).toMatchObject({ recourseDays: null });
    expect(codeOf({ recourse: 'maybe' })).toBe('agreements.errors.yesNoInvalid');
    expect(codeOf({ maxTenorDays: 0 })).toBe('agreements.errors.maxTenorInvalid');
    expect(codeOf({ maxTenorDays: '12.5' })).toBe('agreements.errors.maxTenorInvalid');
    expect(parse({}).data).toMatchObject({ concentrationLimit: '30.00', concentrationThreshold: '0.00' });
    expect(codeOf({ concentrationLimit: 0 })).toBe('agreements.errors.concentrationLimitInvalid');
    expect(codeOf({ effectiveFrom: '2026-02-30' })).toBe('agreements.errors.dayInvalid');
    expect(codeOf({ validFrom: addDays(today, 1) })).toBe('agreements.errors.effectiveBeforeValidFrom');
    expect(codeOf({ validUntil: addDays(today, -400) })).toBe('agreements.errors.validUntilBeforeFrom');
    expect(codeOf({ number: ' ' })).toBe('agreements.errors.numberRequired');
    // The API route parses, then the domain parses the result again: the same terms.
    const once = parse({}).data!;
    expect(agreementTermsSchema.parse(once)).toEqual(once);
  });
});

describe('the agreement PDF', () => {
  it('lists every term of the version in Croatian, with both parties and signature lines', async () => {
    const manager = actorOf(await createTestUser({ role: 'manager' }));
    const client = await insertClient({ agreement: false, name: 'Čađavić i sinovi d.o.o.', address: { address: 'Đakovačka 7', city: 'Osijek', postalCode: '31000' } });
    const created = await createAgreement({
      actor: manager,
      clientId: client.id,
      input: terms({ number: 'UF-2026-0042', validUntil: addDays(today, 700), concentrationLimit: '25', concentrationThreshold: 20000, disclosed: false }),
      ip: null,
    });
    const { bytes, mimeType } = await readDocumentFile(created.documentId!, manager);
    expect(mimeType).toBe('application/pdf');
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    for (const expected of [
      'Ugovor o faktoringu UF-2026-0042',
      'Verzija 1',
      'Faktor: ',
      `Klijent: Čađavić i sinovi d.o.o., OIB ${client.oib}, Đakovačka 7, 31000 Osijek, IBAN ${client.iban}`,
      'Stopa predujma: 85 % iznosa računa',
      'kamata 9,5 % godišnje na neotplaćeni predujam, za stvarni broj dana (godina od 365 dana)',
      'Minimalna naknada po računu: 50,00',
      'Administrativna naknada po računu: 12,50',
      'Naknada za dokumentaciju (jednokratno): 100,00',
      'neplaćeni račun vraća se klijentu 60 dana nakon dospijeća',
      'Najdulje razdoblje od izdavanja do dospijeća računa: 60 dana',
      'tihi faktoring',
      'Limit koncentracije po dužniku: 25 %',
      'Prag primjene limita koncentracije: 20.000,00',
      'Za faktora:',
      'Za klijenta: Čađavić i sinovi d.o.o.',
    ]) {
      expect(text).toContain(expected);
    }
  });
});

describe('the /api agreement routes', () => {
  it('create, list, revise, mark signed and send answer with the API shapes and status codes', async () => {
    const [manager, user] = await Promise.all([createTestUser({ role: 'manager' }), createTestUser({ role: 'user' })]);
    const [managerCookie, userCookie] = await Promise.all([signedInCookie(manager.id), signedInCookie(user.id)]);
    const client = await insertClient({ agreement: false, email: 'api@klijent.hr' });
    const path = `/api/clients/${client.id}/agreements`;

    expect((await apiFailure(listAction(ctx(jsonRequest(path, terms(), userCookie), { clientId: client.id })))).status).toBe(403);
    const invalid = await apiFailure(listAction(ctx(jsonRequest(path, terms({ advanceRate: 120, feeModel: 'x' }), managerCookie), { clientId: client.id })));
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors!)).toEqual(expect.arrayContaining(['advanceRate', 'feeModel']));

    const created = await listAction(ctx(jsonRequest(path, terms({ minimumFee: 50 }), managerCookie), { clientId: client.id }));
    expect(created.status).toBe(201);
    const v1 = await created.json();
    expect(v1).toMatchObject({ version: 1, minimumFee: 50, effectiveFrom: addDays(today, -30), signatureStatus: 'unsigned' });
    expect((await apiFailure(listAction(ctx(jsonRequest(path, terms(), managerCookie), { clientId: client.id })))).status).toBe(409);

    const edited = await reviseAction(ctx(jsonRequest(`/api/agreements/${v1.id}`, terms({ number: v1.number, adminFee: 5 }), managerCookie, 'PUT'), { id: v1.id }));
    expect(edited.status).toBe(200);
    const future = await apiFailure(markSignedAction(ctx(jsonRequest(`/api/agreements/${v1.id}/mark-signed`, { signedOn: addDays(today, 2) }, managerCookie), { id: v1.id })));
    expect(future.status).toBe(400);
    const signed = await markSignedAction(ctx(jsonRequest(`/api/agreements/${v1.id}/mark-signed`, { signedOn: today }, managerCookie), { id: v1.id }));
    expect(await signed.json()).toMatchObject({ signatureStatus: 'signed', signedOn: today });

    const revised = await reviseAction(
      ctx(jsonRequest(`/api/agreements/${v1.id}`, terms({ number: v1.number, effectiveFrom: addDays(today, 5) }), managerCookie, 'PUT'), { id: v1.id }),
    );
    expect(revised.status).toBe(201);
    const v2 = await revised.json();
    expect(v2).toMatchObject({ version: 2, number: v1.number });
    await execute(`INSERT INTO integrations (name, type, status) VALUES ('E-potpis', 'docusign', 'active') ON CONFLICT DO NOTHING`).catch(() => {});
    const sent = await sendAction(ctx(jsonRequest(`/api/agreements/${v2.id}/send-for-signature`, undefined, managerCookie), { id: v2.id }));
    expect(await sent.json()).toMatchObject({ version: 2, signatureStatus: 'signed', signedOn: today });

    const list = await listLoader(ctx(getRequest(path, userCookie), { clientId: client.id }));
    expect(list.headers.get('X-Total-Count')).toBe('2');
    expect((await list.json()).map((row: { version: number }) => row.version)).toEqual([2, 1]);
    expect((await apiFailure(listLoader(ctx(getRequest('/api/clients/x/agreements', userCookie), { clientId: 'x' })))).status).toBe(404);
  });
});
