import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
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
  const row = await selectOne<AgreementRow>(
    `SELECT ${AGREEMENT_COLUMNS} FROM agreements
      WHERE client_id = :clientId AND signature_status = 'signed' AND effective_from <= CAST(:day AS date)
      ORDER BY effective_from DESC, version DESC LIMIT 1`,
    { clientId, day },
    options,
  );
  if (!row) return null;
  if (row.valid_from > day || (row.valid_until !== null && row.valid_until < day)) return null;
  return row;
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
