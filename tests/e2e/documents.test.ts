import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const objectFile = (bytes: Buffer) => {
  const hex = sha256(bytes);
  return path.join(inject('dataDir'), 'objects', 'sha256', hex.slice(0, 2), hex.slice(2));
};
function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}
async function documentCount() {
  return Number((await admin.get('/api/documents?limit=1')).headers.get('x-total-count'));
}

describe('document management', () => {
  it('uploads a PDF through the dialog, downloads it byte-identical, views it inline and signs it', async () => {
    const fileName = `e2e-ugovor-${Date.now()}.pdf`;
    const bytes = Buffer.from(`%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\n% ${fileName}\ntrailer <</Root 1 0 R>>\n%%EOF\n`, 'latin1');
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/documents`);
    await page.getByRole('heading', { name: 'Upravljanje dokumentima' }).waitFor();

    await page.getByRole('button', { name: 'Upload document' }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Upload', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.locator('input[type="file"]').setInputFiles({ name: fileName, mimeType: 'application/pdf', buffer: bytes });
    // The file name fills the empty name; the type is still missing.
    expect(await dialog.locator('input[name="name"]').inputValue()).toBe(fileName);
    expect(await confirm.isDisabled()).toBe(true);
    expect(await dialog.locator('input[name="entityId"]').isDisabled()).toBe(true);
    await dialog.locator('select[name="type"]').selectOption('contract');
    await dialog.getByRole('switch', { name: 'Signature required' }).click();
    await confirm.click();
    await toast(page, 'Dokument je uspješno učitan.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const listed = await admin.get(`/api/documents?q=${encodeURIComponent(fileName)}`);
    expect(listed.json).toHaveLength(1);
    const document = listed.json[0] as { id: string; checksum: string; signatureStatus: string; size: number };
    expect(document).toMatchObject({ checksum: sha256(bytes), signatureStatus: 'pending', size: bytes.length });
    const card = page.getByTestId(`document-${document.id}`);
    await card.getByText('Čeka potpis').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('link', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe(fileName);
    expect(sha256(fs.readFileSync((await download.path())!))).toBe(sha256(bytes));

    const view = await page.request.get(`${baseUrl}/api/documents/${document.id}/view`);
    expect(view.status()).toBe(200);
    expect(view.headers()['content-type']).toBe('application/pdf');
    expect(view.headers()['content-disposition']).toMatch(/^inline; filename="e2e-ugovor-\d+\.pdf"; filename\*=UTF-8''/);
    expect(view.headers()['x-content-type-options']).toBe('nosniff');
    expect(sha256(await view.body())).toBe(sha256(bytes));

    await card.getByRole('button', { name: 'Sign' }).click();
    await card.getByText('Potpisano').waitFor();
    expect(await card.getByRole('button', { name: 'Sign' }).count()).toBe(0);
    const signed = await admin.get(`/api/documents?q=${encodeURIComponent(fileName)}`);
    expect(signed.json[0]).toMatchObject({ signatureStatus: 'signed', signedAt: expect.any(String) });
    expect((await admin.put(`/api/documents/${document.id}/sign`)).status).toBe(409);

    expect(errors).toEqual([]);
    await close();
  });

  it('keeps tabs and search in the URL', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/documents?tab=contract&q=e2e-ugovor`);
    await page.getByTestId('tab-contract').waitFor();
    expect(await page.getByTestId('tab-contract').getAttribute('data-active')).not.toBeNull();
    expect(await page.getByPlaceholder('Search documents...').inputValue()).toBe('e2e-ugovor');
    await close();
  });

  it('uploads without JavaScript through the inline form, and shows missing fields', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/documents`);
    await page.getByRole('link', { name: 'Upload document' }).click();
    const form = page.locator('form[enctype="multipart/form-data"]');
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    await form.getByText('Molimo unesite sve obavezne podatke.').first().waitFor();

    const name = `bez-js-${Date.now()}.png`;
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(name)]);
    await form.locator('input[name="name"]').fill(name);
    await form.locator('select[name="type"]').selectOption('id_document');
    await form.locator('input[type="file"]').setInputFiles({ name, mimeType: 'image/png', buffer: png });
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL(`${baseUrl}/documents`);
    const listed = await admin.get(`/api/documents?q=${encodeURIComponent(name)}`);
    expect(listed.json).toMatchObject([{ name, type: 'id_document', mimeType: 'image/png', checksum: sha256(png) }]);
    await close();
  });

  it('refuses over the API an 11 MB file (413) and an executable renamed .pdf (415), storing nothing', async () => {
    const before = await documentCount();
    const big = Buffer.alloc(11 * 1024 * 1024, 0x20);
    big.write('%PDF-1.4\n', 'latin1');
    const tooLarge = await admin.post('/api/documents/upload', { name: 'velik.pdf', type: 'contract', fileData: big.toString('base64'), signatureRequired: false });
    expect(tooLarge.status).toBe(413);

    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(256, 0x41)]);
    const wrongType = await admin.post('/api/documents/upload', {
      name: 'izvadak.pdf',
      type: 'kyc_document',
      fileData: `data:application/pdf;base64,${exe.toString('base64')}`,
      signatureRequired: false,
    });
    expect(wrongType.status).toBe(415);

    const missing = await admin.post('/api/documents/upload', { name: '', type: 'contract', signatureRequired: false });
    expect(missing).toMatchObject({ status: 400, json: { message: 'Molimo unesite sve obavezne podatke.' } });

    expect(await documentCount()).toBe(before);
    expect(fs.existsSync(objectFile(big))).toBe(false);
    expect(fs.existsSync(objectFile(exe))).toBe(false);
  });

  it('takes a registration upload through the quarantine: public slot, PUT, staff record claims it', async () => {
    const anonymous = await fetch(`${baseUrl}/api/objects/upload`, { method: 'POST' });
    expect(anonymous.status).toBe(200);
    const { uploadURL, objectId } = (await anonymous.json()) as { uploadURL: string; objectId: string };
    const bytes = Buffer.from(`%PDF-1.4\n% quarantine ${Date.now()}\n%%EOF\n`, 'latin1');
    const putResponse = await fetch(`${baseUrl}${uploadURL}`, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': 'application/pdf' } });
    expect(putResponse.status).toBe(200);
    expect((await fetch(`${baseUrl}${uploadURL}`, { method: 'PUT', body: new Uint8Array(bytes) })).status).toBe(409);

    const clients = await admin.get('/api/clients?limit=1');
    const clientId = (clients.json[0] as { id: string } | undefined)?.id;
    if (!clientId) return;
    const record = await admin.post('/api/documents', {
      name: 'Izvadak iz sudskog registra',
      type: 'kyc_document',
      kycType: 'company_registration',
      entityType: 'client',
      entityId: clientId,
      fileUrl: uploadURL,
      size: bytes.length,
      mimeType: 'application/pdf',
    });
    expect(record.status).toBe(201);
    expect(record.json).toMatchObject({ checksum: sha256(bytes), kycType: 'company_registration', entityId: clientId });
    expect((await admin.post('/api/documents', { ...record.json, fileUrl: objectId })).status).toBe(400);
  });
});
