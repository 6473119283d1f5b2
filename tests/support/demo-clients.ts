import type { ApiClient } from './api-client.ts';

export interface DemoClient {
  id: string;
  oib: string;
  companyName: string;
  iban: string | null;
  creditLimit: number | null;
  usedCredit: number;
  status: string;
}

export interface AgreementTerms {
  advanceRate: number;
  feeModel: string;
  feeRate: number;
  minimumFee: number;
  adminFee: number;
  documentationFee: number;
  recourse: boolean;
  concentrationLimit: number;
  concentrationThreshold: number;
}

/** The first active demo client with an IBAN and `headroom` EUR under its limit whose agreement in force `fits`. */
async function demoClientWhere(
  admin: ApiClient,
  headroom: number,
  fits: (agreement: AgreementTerms, client: DemoClient) => boolean,
  what: string,
): Promise<{ client: DemoClient; agreement: AgreementTerms }> {
  const clients = (await admin.get('/api/clients?limit=1000')).json as unknown as DemoClient[];
  for (const client of clients.filter((c) => c.status === 'active' && c.iban && c.creditLimit !== null && c.creditLimit - c.usedCredit > headroom)) {
    const agreement = ((await admin.get(`/api/clients/${client.id}`)).json as unknown as { agreement: AgreementTerms | null }).agreement;
    if (agreement && fits(agreement, client)) return { client, agreement };
  }
  throw new Error(`the demo book has no active client ${what}`);
}

/**
 * An active demo client with an IBAN, `headroom` EUR under its limit and an
 * agreement in force on the discount model without minimum, admin or
 * documentation fee: its fee is amount × rate × started 30-day periods, which
 * a test can compute on its own (docs/money.md#the-factoring-figures).
 */
export function plainDiscountClient(admin: ApiClient, headroom: number): Promise<{ client: DemoClient; agreement: AgreementTerms }> {
  const plain = (agreement: AgreementTerms) => agreement.feeModel === 'discount_30' && agreement.minimumFee === 0 && agreement.adminFee === 0 && agreement.documentationFee === 0;
  return demoClientWhere(admin, headroom, plain, 'on the plain discount model');
}

/**
 * An active demo client on the discount model without documentation fee,
 * with or without recourse, that may finance an invoice of `amount` EUR on a
 * debtor it has nothing open with: the advance fits under its limit and,
 * once its open funded amount passes the agreement's concentration threshold,
 * within the concentration limit (docs/money.md#eligibility). Its fee is
 * max(amount × rate × started 30-day periods, minimum fee) + admin fee.
 */
export function discountClientFor(admin: ApiClient, { amount, recourse }: { amount: number; recourse: boolean }): Promise<{ client: DemoClient; agreement: AgreementTerms }> {
  const fits = (agreement: AgreementTerms, client: DemoClient) => {
    const advance = (amount * agreement.advanceRate) / 100;
    const openAfter = client.usedCredit + advance;
    const concentrated = openAfter > agreement.concentrationThreshold && 100 * advance > agreement.concentrationLimit * openAfter;
    return (
      agreement.feeModel === 'discount_30' &&
      agreement.documentationFee === 0 &&
      agreement.recourse === recourse &&
      client.creditLimit! - client.usedCredit > advance &&
      !concentrated
    );
  };
  return demoClientWhere(admin, 0, fits, `on the discount model ${recourse ? 'with' : 'without'} recourse that can finance ${amount} EUR`);
}
