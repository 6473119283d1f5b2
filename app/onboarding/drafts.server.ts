import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { readCookie } from '../utils/cookies.ts';
import type { KycDocumentType } from './kyc.ts';
import { DRAFT_UPLOAD_CAP_BYTES, DRAFT_UPLOAD_CAP_MB } from './limits.ts';

/**
 * The wizard's server-side draft (docs/lifecycle.md#onboarding-and-kyc: the wizard works without
 * JavaScript, so what the visitor entered must survive between form posts).
 * The visitor holds a random token in an HttpOnly cookie; only its SHA-256 is
 * stored, so a database reader cannot take over a draft.
 */
export const DRAFT_COOKIE = 'finflow_registration';
export const DRAFT_TTL_DAYS = 7;
export const UPLOAD_CAP_EXCEEDED = 'onboarding.upload.capExceeded';

/** The raw form values as typed (strings), so a re-rendered form shows exactly what was entered. */
export type DraftValues = Record<string, string>;

export interface Draft {
  id: string;
  values: DraftValues;
  currentStep: number;
  uploadedBytes: number;
  clientId: string | null;
  submittedAt: Date | null;
  expiresAt: Date;
}

export interface DraftFile {
  kycType: KycDocumentType;
  storageKey: string;
  checksum: string;
  size: number;
  mimeType: string;
  fileName: string;
}

interface DraftRow {
  id: string;
  data: DraftValues;
  current_step: number;
  uploaded_bytes: string;
  client_id: string | null;
  submitted_at: Date | null;
  expires_at: Date;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function toDraft(row: DraftRow): Draft {
  return {
    id: row.id,
    values: row.data ?? {},
    currentStep: row.current_step,
    uploadedBytes: Number(row.uploaded_bytes),
    clientId: row.client_id,
    submittedAt: row.submitted_at,
    expiresAt: row.expires_at,
  };
}

const DRAFT_COLUMNS = 'id, data, current_step, uploaded_bytes, client_id, submitted_at, expires_at';

export function draftTokenFrom(request: Request): string | undefined {
  const token = readCookie(request.headers.get('Cookie'), DRAFT_COOKIE);
  // Tokens are 43 base64url characters; anything else cannot match and is not looked up.
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
}

/** The visitor's draft by their cookie token, unless it is unknown or expired. */
export async function loadDraftByToken(token: string | undefined, options: { transaction?: Transaction } = {}): Promise<Draft | null> {
  if (!token) return null;
  const row = await selectOne<DraftRow>(
    `SELECT ${DRAFT_COLUMNS} FROM registration_drafts WHERE token_hash = :hash AND expires_at > now()
     ${options.transaction ? 'FOR UPDATE' : ''}`,
    { hash: hashToken(token) },
    options,
  );
  return row ? toDraft(row) : null;
}

export function loadDraft(request: Request): Promise<Draft | null> {
  return loadDraftByToken(draftTokenFrom(request));
}

export function draftCookie(token: string): string {
  const secure = process.env.NODE_ENV === 'production' ? '; Secure' : '';
  return `${DRAFT_COOKIE}=${token}; Path=/onboarding; Max-Age=${DRAFT_TTL_DAYS * 24 * 3600}; HttpOnly; SameSite=Lax${secure}`;
}

export function clearDraftCookie(): string {
  return `${DRAFT_COOKIE}=; Path=/onboarding; Max-Age=0; HttpOnly; SameSite=Lax`;
}

/** A new draft and the token for the visitor's cookie. */
export async function createDraft(input: { ip?: string | null; values?: DraftValues; step?: number }): Promise<{ draft: Draft; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const { rows } = await execute<DraftRow>(
    `INSERT INTO registration_drafts (token_hash, data, current_step, ip_address, expires_at)
     VALUES (:hash, CAST(:data AS jsonb), :step, :ip, now() + make_interval(days => :days))
     RETURNING ${DRAFT_COLUMNS}`,
    { hash: hashToken(token), data: JSON.stringify(input.values ?? {}), step: input.step ?? 1, ip: input.ip?.slice(0, 64) ?? null, days: DRAFT_TTL_DAYS },
  );
  return { draft: toDraft(rows[0]), token };
}

/**
 * Merges `values` into the draft and moves it to `step`; each save extends
 * the expiry, so an applicant who is still working never loses the draft.
 */
export async function saveDraft(draftId: string, input: { values?: DraftValues; step?: number; ip?: string | null }, options: { transaction?: Transaction } = {}): Promise<Draft> {
  const { rows } = await execute<DraftRow>(
    `UPDATE registration_drafts
        SET data = data || CAST(:data AS jsonb),
            current_step = COALESCE(:step, current_step),
            ip_address = COALESCE(:ip, ip_address),
            expires_at = now() + make_interval(days => :days)
      WHERE id = :id AND submitted_at IS NULL
      RETURNING ${DRAFT_COLUMNS}`,
    { id: draftId, data: JSON.stringify(input.values ?? {}), step: input.step ?? null, ip: input.ip?.slice(0, 64) ?? null, days: DRAFT_TTL_DAYS },
    options,
  );
  if (!rows[0]) throw apiError(409, 'onboarding.errors.alreadySubmitted');
  return toDraft(rows[0]);
}

export async function listDraftFiles(draftId: string, options: { transaction?: Transaction } = {}): Promise<DraftFile[]> {
  const rows = await selectRows<{ kyc_type: KycDocumentType; storage_key: string; checksum: string; size: string; mime_type: string; file_name: string }>(
    `SELECT kyc_type, storage_key, checksum, size, mime_type, file_name FROM registration_draft_files
      WHERE draft_id = :draftId ORDER BY created_at`,
    { draftId },
    options,
  );
  return rows.map((row) => ({
    kycType: row.kyc_type,
    storageKey: row.storage_key,
    checksum: row.checksum,
    size: Number(row.size),
    mimeType: row.mime_type,
    fileName: row.file_name,
  }));
}

/**
 * Attaches a checked, stored file to the draft for its KYC type, replacing an
 * earlier one of that type (docs/domain-model.md#validation). The per-draft byte budget is taken in
 * the same statement that checks it, so parallel uploads cannot overshoot:
 * past it the answer is 413.
 */
export async function attachDraftFile(draftId: string, file: DraftFile, options: { transaction: Transaction }): Promise<void> {
  const budget = await execute(
    `UPDATE registration_drafts SET uploaded_bytes = uploaded_bytes + :size
      WHERE id = :draftId AND submitted_at IS NULL AND uploaded_bytes + :size <= :cap`,
    { draftId, size: file.size, cap: DRAFT_UPLOAD_CAP_BYTES },
    options,
  );
  if (budget.count !== 1) {
    throw apiError(413, UPLOAD_CAP_EXCEEDED, { params: { cap: DRAFT_UPLOAD_CAP_MB }, errors: { [`file_${file.kycType}`]: [UPLOAD_CAP_EXCEEDED] } });
  }
  await execute(
    `INSERT INTO registration_draft_files (draft_id, kyc_type, storage_key, checksum, size, mime_type, file_name)
     VALUES (:draftId, :kycType, :storageKey, :checksum, :size, :mimeType, :fileName)
     ON CONFLICT (draft_id, kyc_type) DO UPDATE SET
       storage_key = EXCLUDED.storage_key, checksum = EXCLUDED.checksum, size = EXCLUDED.size,
       mime_type = EXCLUDED.mime_type, file_name = EXCLUDED.file_name, created_at = now()`,
    { draftId, ...file, fileName: file.fileName.slice(0, 255) },
    options,
  );
}

export async function markDraftSubmitted(draftId: string, clientId: string, options: { transaction: Transaction }): Promise<void> {
  await execute(
    `UPDATE registration_drafts SET submitted_at = now(), client_id = :clientId, current_step = 4 WHERE id = :draftId AND submitted_at IS NULL`,
    { draftId, clientId },
    options,
  );
}

/** For a cleanup job: expired drafts (their files go with them by cascade). */
export async function purgeExpiredDrafts(): Promise<number> {
  const { count } = await execute(`DELETE FROM registration_drafts WHERE expires_at <= now()`);
  return count;
}
