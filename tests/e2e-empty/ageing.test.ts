import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessibleInEachAppearance, settle } from '../support/accessibility.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';

/**
 * The ageing report on a new install (docs/collections.md#ageing): nothing
 * was financed before today, so as of yesterday the report is empty — the
 * page says so, with zero totals and no errors, and the API and the CSV agree.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

const yesterday = new Date(Date.now() - 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Zagreb' });

describe('the ageing report on an empty install', () => {
  it('shows an empty report without errors, and the API and CSV agree', async () => {
    const response = await admin.get(`/api/analytics/ageing?asOf=${yesterday}&by=customer`);
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Total-Count')).toBe('0');
    expect(response.json).toEqual({
      asOf: yesterday,
      by: 'customer',
      count: 0,
      totals: { notDue: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0, invoices: 0 },
      rows: [],
    });
    const csv = await admin.get(`/api/analytics/ageing/export.csv?asOf=${yesterday}&by=customer`);
    expect(csv.status).toBe(200);
    expect(
      csv.text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toEqual(['asOf;by;id;name;oib;notDue;days1to30;days31to60;days61to90;over90;total;invoices', `${yesterday};customer;;total;;0,00;0,00;0,00;0,00;0,00;0,00;0`]);

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await expectAccessibleInEachAppearance(page, baseUrl, 'empty ageing report', async () => {
      await page.goto(`${baseUrl}/analytics?tab=ageing&by=customer&asOf=${yesterday}`);
      await page.getByTestId('ageing-empty').waitFor();
      await settle(page);
    });
    expect(await page.getByTestId('ageing-table').count()).toBe(0);
    expect(await page.getByTestId('ageing-error').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});
