import { beforeAll, describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { getObjectStore, objectKeyFor, sha256Hex } from '../storage/object-store.server.ts';
import { DRAFT_COOKIE } from './drafts.server.ts';
import { KYC_MAX_FILE_BYTES } from './kyc.ts';
import { assertRegistrationRate, REGISTRATION_RATE } from './rate-limit.server.ts';
import { seedOnboardingDefinition, TINY_PDF, TINY_PNG } from './test-fixtures.server.ts';
import { loadWizard, wizardAction } from './wizard.server.ts';
import { wizardValues } from '../../tests/factories.ts';

beforeAll(seedOnboardingDefinition);

let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;

/** A browser without JavaScript: form posts with the draft cookie it was given. */
class Visitor {
  cookie = '';
  ip = freshIp();
  async post(step: number, fields: Record<string, string>, files: Record<string, { name: string; bytes: Buffer; type: string }> = {}) {
    const body = new FormData();
    body.set('step', String(step));
    for (const [key, value] of Object.entries(fields)) body.set(key, value);
    for (const [key, file] of Object.entries(files)) body.set(key, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    const request = new Request(`http://localhost/onboarding?step=${step}`, { method: 'POST', body, headers: this.cookie ? { Cookie: this.cookie } : {} });
    const response = await wizardAction(request, this.ip);
    const setCookie = response.headers.get('Set-Cookie');
    if (setCookie?.startsWith(`${DRAFT_COOKIE}=`)) this.cookie = setCookie.split(';')[0];
    return response;
  }
  load(step?: number) {
    return loadWizard(new Request(`http://localhost/onboarding${step ? `?step=${step}` : ''}`, { headers: this.cookie ? { Cookie: this.cookie } : {} }));
  }
}

const pick = (values: Record<string, string>, keys: string[]) => Object.fromEntries(keys.map((key) => [key, values[key]]));
const STEP1 = ['companyName', 'oib', 'registrationNumber', 'contactPerson', 'email', 'phone'];
const STEP2 = ['address', 'city', 'postalCode', 'country', 'iban', 'creditLimit'];

describe('the wizard without JavaScript', () => {
  it('keeps what was typed when a step is refused, and moves on when it is valid', async () => {
    const visitor = new Visitor();
    const values = wizardValues();
    const refused = await visitor.post(1, { ...pick(values, STEP1), oib: '123', intent: 'next' });
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.step).toBe(1);
    expect(body.lastResult.error.oib).toEqual(['onboarding.errors.oibFormat']);
    expect(refused.headers.get('Set-Cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    expect((await visitor.load(1)).values).toMatchObject({ companyName: values.companyName, oib: '123' });

    const next = await visitor.post(1, { ...pick(values, STEP1), intent: 'next' });
    expect(next.status).toBe(302);
    expect(next.headers.get('Location')).toBe('/onboarding?step=2');
    // Previous saves without validating.
    const back = await visitor.post(2, { ...pick(values, STEP2), city: '', intent: 'previous' });
    expect(back.headers.get('Location')).toBe('/onboarding?step=1');
    expect((await visitor.load(2)).values).toMatchObject({ address: values.address, city: '' });
  });

  it('refuses a .txt, an executable named .pdf and an 11 MB file with the upload texts, storing nothing; then submits', async () => {
    const visitor = new Visitor();
    const values = wizardValues();
    await visitor.post(1, { ...pick(values, STEP1), intent: 'next' });
    await visitor.post(2, { ...pick(values, STEP2), intent: 'next' });

    const bad = {
      file_company_registration: { name: 'notes.txt', bytes: Buffer.from('hello'), type: 'text/plain' },
      file_tax_certificate: { name: 'setup.pdf', bytes: Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(64)]), type: 'application/pdf' },
      file_bank_statement: { name: 'big.pdf', bytes: Buffer.concat([TINY_PDF, Buffer.alloc(11 * 1024 * 1024)]), type: 'application/pdf' },
    };
    const refused = await visitor.post(3, { intent: 'upload' }, bad);
    expect(refused.status).toBe(413);
    expect((await refused.json()).fileErrors).toEqual({
      file_company_registration: ['onboarding.upload.invalidType'],
      file_tax_certificate: ['onboarding.upload.invalidType'],
      file_bank_statement: ['onboarding.upload.tooLarge'],
    });
    expect((await visitor.load(3)).files).toEqual([]);
    for (const file of Object.values(bad)) expect(await getObjectStore().exists(objectKeyFor(sha256Hex(file.bytes)))).toBe(false);

    const missing = await visitor.post(3, { intent: 'submit' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).formErrors).toEqual(['onboarding.errors.kycRequired']);

    const ok = await visitor.post(
      3,
      { intent: 'submit' },
      {
        file_company_registration: { name: 'izvadak.pdf', bytes: TINY_PDF, type: 'application/pdf' },
        file_director_id: { name: 'osobna.png', bytes: TINY_PNG, type: 'image/png' },
      },
    );
    expect(ok.headers.get('Location')).toBe('/onboarding?step=4');
    expect((await visitor.load()).step).toBe(4);
    const client = await selectOne<{ id: string; status: string }>(`SELECT id, status FROM clients WHERE oib = :oib`, { oib: values.oib });
    expect(client?.status).toBe('pending');
    expect(await selectRows(`SELECT kyc_type FROM documents WHERE entity_id = :id ORDER BY kyc_type`, { id: client!.id })).toEqual([
      { kyc_type: 'company_registration' },
      { kyc_type: 'director_id' },
    ]);
  });

  it('the file at exactly 10 MB is accepted', async () => {
    const visitor = new Visitor();
    const bytes = Buffer.concat([TINY_PDF, Buffer.alloc(KYC_MAX_FILE_BYTES - TINY_PDF.length)]);
    const response = await visitor.post(3, { intent: 'upload' }, { file_bank_statement: { name: 'izvod.pdf', bytes, type: 'application/pdf' } });
    expect(response.headers.get('Location')).toBe('/onboarding?step=3');
    expect((await visitor.load(3)).files).toMatchObject([{ kycType: 'bank_statement', size: KYC_MAX_FILE_BYTES }]);
  });
});

describe('abuse limits', () => {
  it('counts requests per address and answers 429 with Retry-After past the budget', async () => {
    const ip = freshIp();
    const rule = { max: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i += 1) await assertRegistrationRate(ip, rule);
    const failure = await apiFailure(assertRegistrationRate(ip, rule));
    expect(failure.status).toBe(429);
    expect(Number(failure.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Another address has its own budget.
    await assertRegistrationRate(freshIp(), rule);
    // An old window starts again.
    await execute(`UPDATE registration_rate_limits SET window_started_at = now() - interval '2 minutes' WHERE key = :key`, { key: `registration:${ip}` });
    await assertRegistrationRate(ip, rule);
  });

  it('the wizard answers 429 with a clear message once the address is over the limit', async () => {
    const visitor = new Visitor();
    await execute(`INSERT INTO registration_rate_limits (key, hits) VALUES (:key, :hits)`, { key: `registration:${visitor.ip}`, hits: REGISTRATION_RATE.max });
    const response = await visitor.post(1, { ...wizardValues(), intent: 'next' });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ step: 1, formErrors: ['onboarding.errors.tooManyRequests'] });
    expect(visitor.cookie).toBe('');
  });

  it('the per-draft upload cap answers 413', async () => {
    const visitor = new Visitor();
    await visitor.post(3, { intent: 'upload' }, { file_tax_certificate: { name: 'a.pdf', bytes: TINY_PDF, type: 'application/pdf' } });
    await execute(`UPDATE registration_drafts SET uploaded_bytes = 60 * 1024 * 1024 - 10`);
    const response = await visitor.post(3, { intent: 'upload' }, { file_tax_certificate: { name: 'b.pdf', bytes: TINY_PDF, type: 'application/pdf' } });
    expect(response.status).toBe(413);
    expect((await response.json()).fileErrors).toEqual({ file_tax_certificate: ['onboarding.upload.capExceeded'] });
  });
});

describe('bad posts to the wizard', () => {
  const raw = (body: BodyInit, type: string) =>
    wizardAction(new Request('http://localhost/onboarding?step=1', { method: 'POST', body, headers: { 'Content-Type': type } }), freshIp());

  it('answers a JSON or text body with 415 and a broken multipart body with 400, never a 500', async () => {
    expect((await raw(JSON.stringify({ step: 1, companyName: 'X' }), 'application/json')).status).toBe(415);
    expect((await raw('step=1', 'text/plain')).status).toBe(415);
    expect((await raw('--x\r\nContent-Disposition: form-data; name="step"\r\n\r\n1', 'multipart/form-data; boundary=x')).status).toBe(400);
    expect((await raw('--x\r\nbroken', 'multipart/form-data')).status).toBe(400);
  });

  it('refuses control characters in a step field on that field, keeping them out of the draft', async () => {
    const visitor = new Visitor();
    const values = wizardValues();
    const refused = await visitor.post(1, { ...pick(values, STEP1), companyName: 'Jadran\u0000 d.o.o.', contactPerson: 'Ana\u0007', intent: 'next' });
    expect(refused.status).toBe(400);
    const { lastResult } = await refused.json();
    // The page gets the refusal's code and shows its text in the reader's language (docs/decisions/013-error-codes.md).
    expect(lastResult.error.companyName).toEqual(['validation.invalidCharacters']);
    expect(lastResult.error.contactPerson).toEqual(['validation.invalidCharacters']);
    const draft = (await visitor.load(1)).values;
    expect(draft.companyName).toBeUndefined();
    expect(draft.oib).toBe(values.oib);
  });

  it('refuses a file whose name carries a control character, storing nothing', async () => {
    const visitor = new Visitor();
    const refused = await visitor.post(3, { intent: 'upload' }, { file_tax_certificate: { name: 'porezna\u0001.pdf', bytes: TINY_PDF, type: 'application/pdf' } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fileErrors).toEqual({ file_tax_certificate: ['validation.invalidCharacters'] });
    expect((await visitor.load(3)).files).toEqual([]);
  });
});
