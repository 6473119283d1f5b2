import type { Transaction } from 'sequelize';
import { selectRows } from '../db.server.ts';
import { toCents } from '../utils/money.ts';
import type { FeeModel, FeeTerms } from './fees.ts';

/** A version of a client's factoring agreement as the database returns it. */
export interface AgreementRow {
  id: string;
  client_id: string;
  number: string;
  version: number;
  effective_from: string;
  valid_from: string;
  valid_until: string | null;
  advance_rate: string;
  fee_model: FeeModel;
  fee_rate: string;
  minimum_fee: string;
  admin_fee: string;
  documentation_fee: string;
  recourse: boolean;
  recourse_days: number | null;
  max_tenor_days: number;
  disclosed: boolean;
  requires_debtor_confirmation: boolean;
  concentration_limit: string;
  concentration_threshold: string;
  signature_status: 'unsigned' | 'sent' | 'signed';
  signed_on: string | null;
}

export const AGREEMENT_COLUMNS = `id, client_id, number, version, to_char(effective_from, 'YYYY-MM-DD') AS effective_from,
  to_char(valid_from, 'YYYY-MM-DD') AS valid_from, to_char(valid_until, 'YYYY-MM-DD') AS valid_until, advance_rate, fee_model, fee_rate,
  minimum_fee, admin_fee, documentation_fee, recourse, recourse_days, max_tenor_days, disclosed, requires_debtor_confirmation, concentration_limit,
  concentration_threshold, signature_status, to_char(signed_on, 'YYYY-MM-DD') AS signed_on`;

/**
 * The version of the client's agreement in force on `day` ('YYYY-MM-DD'): the
 * signed version with the latest effective_from on or before that day (the
 * highest version among equals), provided the day lies within its valid_from ..
 * valid_until. Null when none is: financing is then refused. An unsigned or
 * sent version is never in force; an edit takes over from its own date once signed.
 */
export async function agreementInForce(clientId: string, day: string, options: { transaction?: Transaction } = {}): Promise<AgreementRow | null> {
  return (await agreementsInForce([clientId], day, options)).get(clientId)?.agreement ?? null;
}

/**
 * SQL: whether an invoice (other than `exceptInvoiceId`, SQL) was financed under the number of
 * `agreement` (an alias with client_id and number), any version: the documentation fee is due
 * only before the first.
 */
export const financedUnderAgreementSql = (agreement: string, exceptInvoiceId = 'NULL') =>
  `EXISTS (SELECT 1 FROM invoices i
            WHERE i.agreement_id IN (SELECT b.id FROM agreements b WHERE b.client_id = ${agreement}.client_id AND b.number = ${agreement}.number)
              AND i.id IS DISTINCT FROM ${exceptInvoiceId})`;

/**
 * agreementInForce for many clients in one query (a list page's previews), each
 * with whether the client has had no financing yet under that agreement's number
 * (any version): the documentation fee is then due (firstUnderAgreement).
 */
export async function agreementsInForce(
  clientIds: readonly string[],
  day: string,
  options: { transaction?: Transaction } = {},
): Promise<Map<string, { agreement: AgreementRow; first: boolean }>> {
  const inForce = new Map<string, { agreement: AgreementRow; first: boolean }>();
  if (clientIds.length === 0) return inForce;
  const rows = await selectRows<AgreementRow & { first: boolean }>(
    `SELECT ${AGREEMENT_COLUMNS}, NOT ${financedUnderAgreementSql('latest')} AS first
       FROM (SELECT DISTINCT ON (client_id) * FROM agreements
              WHERE client_id IN (:clientIds) AND signature_status = 'signed' AND effective_from <= CAST(:day AS date)
              ORDER BY client_id, effective_from DESC, version DESC) latest`,
    { clientIds: [...new Set(clientIds)], day },
    options,
  );
  for (const { first, ...agreement } of rows) {
    if (agreement.valid_from > day || (agreement.valid_until !== null && agreement.valid_until < day)) continue;
    inForce.set(agreement.client_id, { agreement, first });
  }
  return inForce;
}

/** The fee terms of fees.ts from an agreement version. */
export function feeTermsOf(agreement: Pick<AgreementRow, 'fee_model' | 'fee_rate' | 'minimum_fee' | 'admin_fee'>): FeeTerms {
  return {
    feeModel: agreement.fee_model,
    feeRate: agreement.fee_rate,
    minimumFeeCents: toCents(agreement.minimum_fee),
    adminFeeCents: toCents(agreement.admin_fee),
  };
}
