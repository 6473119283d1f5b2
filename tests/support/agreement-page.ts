import type { Page } from 'playwright-core';

/**
 * The client page's agreement section driven as staff do it, without JavaScript
 * (app/components/agreements/agreement-section.tsx): the create/revise panel at
 * `?agreement=edit`, and a version's 'mark signed'.
 */
export interface AgreementTermsInput {
  number?: string;
  effectiveFrom?: string;
  advanceRate?: string;
  feeModel?: 'discount_30' | 'interest_360' | 'interest_365';
  feeRate?: string;
  minimumFee?: string;
  recourse?: boolean;
  recourseDays?: string;
  maxTenorDays?: string;
  disclosed?: boolean;
  concentrationThreshold?: string;
}

/** Opens the panel from the section's button (New agreement / Revise agreement), fills what is given and saves. */
export async function saveAgreementPanel(page: Page, button: 'New agreement' | 'Revise agreement', terms: AgreementTermsInput) {
  await page.getByTestId('agreement-section').waitFor();
  await page.getByRole('link', { name: button }).click();
  const panel = page.getByTestId('agreement-panel');
  await panel.waitFor();
  const fill = async (label: string, value: string | undefined) => {
    if (value !== undefined) await panel.getByLabel(label, { exact: true }).fill(value);
  };
  const select = async (label: string, value: string | undefined) => {
    if (value !== undefined) await panel.getByLabel(label, { exact: true }).selectOption(value);
  };
  await fill('Agreement number *', terms.number);
  await fill('Effective from *', terms.effectiveFrom);
  await fill('Advance rate (%) *', terms.advanceRate);
  await select('Fee model *', terms.feeModel);
  await fill('Fee rate (%) *', terms.feeRate);
  await fill('Minimum fee per invoice (EUR)', terms.minimumFee);
  await select('Recourse *', terms.recourse === undefined ? undefined : String(terms.recourse));
  await fill('Days past due before a chargeback', terms.recourseDays);
  await fill('Maximum tenor (days from issue to due) *', terms.maxTenorDays);
  await select('Assignment disclosed to the debtor *', terms.disclosed === undefined ? undefined : String(terms.disclosed));
  await fill('Concentration applies from (EUR, open funded amount)', terms.concentrationThreshold);
  await panel.getByRole('button', { name: 'Save agreement' }).click();
  await panel.waitFor({ state: 'detached' });
}

/** 'Mark signed' on a version's row with the signing day. */
export async function markAgreementSigned(page: Page, version: number, day: string) {
  await page.getByTestId(`agreement-signed-on-${version}`).fill(day);
  await page.getByTestId(`agreement-mark-signed-${version}`).click();
  await page
    .getByTestId(`agreement-status-${version}`)
    .getByText(/^Signed /)
    .waitFor();
}
