import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { croatianIban, oibCheckDigit } from '../../app/utils/validation.ts';
import { signInAsAdmin } from '../support/api-client.ts';
import { launchBrowser, newStrictPage } from '../support/browser.ts';
import { attachWithJavaScript } from '../support/onboarding-wizard.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

// The smallest files that are really what their names say (checked by content on the server).
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const KYC_TYPES = ['company_registration', 'tax_certificate', 'bank_statement', 'financial_statements', 'director_id'] as const;
const TYPE_ERROR = 'Invalid file type. Allowed types: PDF, JPG, JPEG, PNG';
const SIZE_ERROR = 'File is too large. Maximum size: 10 MB';

function freshOib(): string {
  const first10 = String(Math.floor(Math.random() * 9e9) + 1e9);
  return `${first10}${oibCheckDigit(first10)}`;
}

function fileFor(kycType: (typeof KYC_TYPES)[number]) {
  // Each file differs, so each becomes its own stored object.
  return kycType === 'director_id'
    ? { name: 'osobna-iskaznica.png', mimeType: 'image/png', buffer: PNG }
    : { name: `${kycType}.pdf`, mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.from(`% ${kycType}\n`)]) };
}

async function fillDetails(page: Page, oib: string) {
  await page.goto(`${baseUrl}/onboarding`);
  await expect(page.getByTestId('wizard-step-label').textContent()).resolves.toBe('Step 1 of 4');
  expect(await page.getByTestId('wizard-progress').getAttribute('data-value')).toBe('25');
  expect(await page.getByTestId('back-to-menu').getAttribute('href')).toBe('/');
  await page.fill('input[name="companyName"]', 'E2E Faktor d.o.o.');
  await page.fill('input[name="oib"]', '12345');
  await page.fill('input[name="registrationNumber"]', '080999111');
  await page.fill('input[name="contactPerson"]', 'Iva Ivić');
  await page.fill('input[name="email"]', 'iva@e2e-faktor.hr');
  await page.fill('input[name="phone"]', '+385 91 123 4567');
  await page.getByRole('button', { name: 'Next' }).click();
  // Refused with the spec's text; what was typed is still there.
  await page.getByText('OIB must have exactly 11 digits').waitFor();
  expect(await page.inputValue('input[name="companyName"]')).toBe('E2E Faktor d.o.o.');
  await page.fill('input[name="oib"]', oib);
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByText('Step 2 of 4').waitFor();
  expect(await page.getByTestId('wizard-progress').getAttribute('data-value')).toBe('50');
  expect(await page.inputValue('select[name="country"]')).toBe('Croatia');
  expect(await page.getAttribute('input[name="creditLimit"]', 'placeholder')).toBe('50000');
  await page.fill('input[name="address"]', 'Savska cesta 41');
  await page.fill('input[name="city"]', 'Zagreb');
  await page.fill('input[name="postalCode"]', '10000');
  await page.fill('input[name="iban"]', croatianIban('2484008', '1105512345'));
  await page.fill('input[name="creditLimit"]', '120000');
  // Free navigation: back and forth keeps everything.
  await page.getByRole('button', { name: 'Previous' }).click();
  await page.getByText('Step 1 of 4').waitFor();
  expect(await page.inputValue('input[name="oib"]')).toBe(oib);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Step 2 of 4').waitFor();
  expect(await page.inputValue('input[name="city"]')).toBe('Zagreb');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Step 3 of 4').waitFor();
  expect(await page.getByTestId('wizard-progress').getAttribute('data-value')).toBe('75');
}

async function expectRegistered(oib: string) {
  const staff = await signInAsAdmin();
  const list = await staff.get(`/api/clients?q=${oib}`);
  expect(list.status).toBe(200);
  expect(list.json).toHaveLength(1);
  const client = list.json[0] as { id: string; status: string; companyName: string };
  expect(client).toMatchObject({ status: 'pending', companyName: 'E2E Faktor d.o.o.' });
  const detail = await staff.get(`/api/clients/${client.id}`);
  const documents = detail.json.documents as Array<{ kycType?: string; type: string }>;
  expect(documents).toHaveLength(5);
}

async function expectSuccess(page: Page) {
  await page.getByTestId('wizard-success').waitFor();
  await page.getByText('Step 4 of 4').waitFor();
  expect(await page.getByTestId('wizard-progress').getAttribute('data-value')).toBe('100');
  await page.getByText('Our team will review your request within 1-3 business days.').waitFor();
  for (const text of ['KYC verification in progress', 'Document review', 'Credit limit approval', 'Access to the factoring platform']) {
    await page.getByText(text).waitFor();
  }
}

describe('the registration wizard', () => {
  it('without JavaScript a visitor registers with five files; staff then see the pending client and its documents', async () => {
    const oib = freshOib();
    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    await fillDetails(page, oib);
    await page.getByText(/Still missing: Court register extract, Tax certificate/).waitFor();
    for (const kycType of KYC_TYPES) await page.setInputFiles(`input[name="file_${kycType}"]`, fileFor(kycType));
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await expectSuccess(page);
    // The one refused step (the short OIB) answered 400, which Chromium reports; nothing else went wrong.
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    await close();
    await expectRegistered(oib);
  });

  it('with JavaScript the files go through the signed upload address; staff then see the pending client and its documents', async () => {
    const oib = freshOib();
    const { page, errors, close } = await newStrictPage(browser);
    await fillDetails(page, oib);
    await page.waitForLoadState('networkidle');
    for (const kycType of KYC_TYPES) await attachWithJavaScript(page, kycType, fileFor(kycType));
    await page.getByText('All documents are attached.').waitFor();
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await expectSuccess(page);
    expect(errors).toEqual([]);
    await close();
    await expectRegistered(oib);
  });

  const refusals = [
    { kycType: 'company_registration', file: { name: 'big.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)]) }, message: SIZE_ERROR },
    { kycType: 'tax_certificate', file: { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') }, message: TYPE_ERROR },
    {
      kycType: 'bank_statement',
      file: { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00]), Buffer.alloc(512)]) },
      message: TYPE_ERROR,
    },
  ] as const;

  it('without JavaScript an 11 MB file, a .txt and an executable renamed .pdf are refused and nothing is attached', async () => {
    const { page, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    await page.goto(`${baseUrl}/onboarding?step=3`);
    for (const { kycType, file } of refusals) await page.setInputFiles(`input[name="file_${kycType}"]`, file);
    await page.getByRole('button', { name: 'Upload selected files' }).click();
    for (const { kycType, message } of refusals) await page.getByTestId(`kyc-${kycType}`).getByText(message).waitFor();
    for (const kycType of KYC_TYPES) await page.getByTestId(`kyc-${kycType}`).getByText('Not attached yet').waitFor();
    // Submitting without any document is refused too.
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await page.getByText('At least one KYC document is needed to submit').waitFor();
    await close();
  });

  it('with JavaScript the same three files are refused and nothing is attached', async () => {
    const { page, close } = await newStrictPage(browser);
    await page.goto(`${baseUrl}/onboarding?step=3`);
    await page.waitForLoadState('networkidle');
    for (const { kycType, file, message } of refusals) {
      await page.setInputFiles(`#file-${kycType}`, file);
      await page.getByTestId(`kyc-${kycType}`).getByText(message).waitFor();
    }
    await page.waitForLoadState('networkidle');
    for (const kycType of KYC_TYPES) await page.getByTestId(`kyc-${kycType}`).getByText('Not attached yet').waitFor();
    await close();
  });
});
