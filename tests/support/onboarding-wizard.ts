import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The registration wizard (/onboarding) as the end-to-end files drive it: steps
 * 1 and 2 filled in, and a KYC file attached with JavaScript. Not a test file
 * (tests/vitest.config.ts runs *.test.ts only).
 */

/** An applicant's answers to steps 1 (the company) and 2 (address, bank account, optional limit wish). */
export interface WizardDetails {
  companyName: string;
  oib: string;
  registrationNumber: string;
  contactPerson: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  postalCode: string;
  iban: string;
  creditLimit?: string;
}

/** Opens the wizard at `url` (step 1) and fills in steps 1 and 2; the page is left on step 3, the documents. */
export async function fillWizardDetails(page: Page, url: string, details: WizardDetails) {
  await page.goto(url);
  await page.getByText('Step 1 of 4').waitFor();
  await page.fill('input[name="companyName"]', details.companyName);
  await page.fill('input[name="oib"]', details.oib);
  await page.fill('input[name="registrationNumber"]', details.registrationNumber);
  await page.fill('input[name="contactPerson"]', details.contactPerson);
  await page.fill('input[name="email"]', details.email);
  await page.fill('input[name="phone"]', details.phone);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Step 2 of 4').waitFor();
  await page.fill('input[name="address"]', details.address);
  await page.fill('input[name="city"]', details.city);
  await page.fill('input[name="postalCode"]', details.postalCode);
  await page.fill('input[name="iban"]', details.iban);
  if (details.creditLimit !== undefined) await page.fill('input[name="creditLimit"]', details.creditLimit);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Step 3 of 4').waitFor();
}

/** With JavaScript, one KYC file goes through the signed upload address (200) and its row then says it is attached. */
export async function attachWithJavaScript(page: Page, kycType: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const uploaded = page.waitForResponse((response) => response.url().includes('/api/objects/upload/') && response.request().method() === 'PUT');
  await page.setInputFiles(`#file-${kycType}`, file);
  expect((await uploaded).status()).toBe(200);
  await page
    .getByTestId(`kyc-${kycType}`)
    .getByText(/Attached:/)
    .waitFor();
}
