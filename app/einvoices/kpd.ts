import list from './kpd-2025.json';

/**
 * The KPD 2025 product classification codes (ItemClassificationCode
 * listID="CG") the official Croatian CIUS accepts: its code list HR-BR-CL-2,
 * extracted from vendor/einvoice-rules by scripts/extract-kpd-codes.ts. A
 * code outside it (e.g. a CPA 2.1 code of KPD 2015) fails HR-BR-25 /
 * HR-BR-CL-2, and the tax administration refuses the e-invoice.
 */
export const KPD_2025_CODES: ReadonlySet<string> = new Set(list.codes);

export function isKpd2025Code(code: string): boolean {
  return KPD_2025_CODES.has(code);
}

/**
 * The factor's fee e-invoices, unless FACTOR_KPD_CODE says otherwise:
 * 64.92.07, factoring services. NKD 2025 (NACE Rev. 2.1) classifies factoring
 * under 64.92 "other credit granting", no longer under 64.99 (KPD 2015's
 * 64.99.19 is not in the 2025 list); docs/decisions/006-outgoing-einvoices.md
 * says why this subcategory.
 */
export const DEFAULT_FACTOR_KPD_CODE = '64.92.07';
