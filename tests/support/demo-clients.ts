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
}

/**
 * An active demo client with an IBAN, `headroom` EUR under its limit and an
 * agreement in force on the discount model without minimum, admin or
 * documentation fee: its fee is amount × rate × started 30-day periods, which
 * a test can compute on its own (docs/money.md#the-factoring-figures).
 */
export async function plainDiscountClient(admin: ApiClient, headroom: number): Promise<{ client: DemoClient; agreement: AgreementTerms }> {
  const clients = (await admin.get('/api/clients?limit=1000')).json as unknown as DemoClient[];
  for (const client of clients.filter((c) => c.status === 'active' && c.iban && c.creditLimit !== null && c.creditLimit - c.usedCredit > headroom)) {
    const agreement = ((await admin.get(`/api/clients/${client.id}`)).json as unknown as { agreement: AgreementTerms | null }).agreement;
    if (agreement?.feeModel === 'discount_30' && agreement.minimumFee === 0 && agreement.adminFee === 0 && agreement.documentationFee === 0) return { client, agreement };
  }
  throw new Error('the demo book has no active client on the plain discount model');
}
