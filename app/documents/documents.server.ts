import type { Transaction } from 'sequelize';
import type * as z from 'zod';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { getESignature, type ESignatureAdapter } from '../integrations/esignature.server.ts';
import { getObjectStore, sha256Hex } from '../storage/object-store.server.ts';
import { apiError, zodRefusal } from '../utils/api.server.ts';
import { INPUT_ERRORS, isSingleLineText, isUuid } from '../utils/validation.ts';
import { checkUpload, safeFileName } from './file-types.server.ts';
import { deleteObjectIfUnreferenced, ensureObjectPresent, lockExistingObject } from './object-refs.server.ts';
import {
  DOCUMENT_ENTITY_TYPES,
  DOCUMENT_TYPES,
  KYC_DOCUMENT_TYPES,
  MESSAGES,
  RECENT_DAYS,
  registrationRecordSchema,
  type AllowedExtension,
  type DocumentEntityType,
  type DocumentTab,
  type DocumentType,
  type KycType,
} from './schemas.ts';
import { claimUploads, resolveUploadReference } from './uploads.server.ts';
import { iso } from '../utils/api-values.ts';
import type { Document } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { pageBounds } from '../utils/list-url.ts';

export { deleteObjectIfUnreferenced } from './object-refs.server.ts';
export { claimUploads, createUploadSlot, purgeUnclaimedUploads, receiveUpload } from './uploads.server.ts';

/**
 * Documents (docs/domain-model.md, docs/lifecycle.md#other-records, docs/screens.md /documents, docs/api.md): the
 * bytes sit in the object store (content-addressed), the row keeps key,
 * checksum, size and the verified type. Every upload, download (and inline
 * view) and signature writes an activity row.
 */
export interface DocumentDto {
  id: string;
  name: string;
  type: DocumentType;
  kycType: KycType | null;
  mimeType: string;
  size: number;
  checksum: string;
  createdAt: string;
  /** The uploader's name; null for the applicant's own registration uploads. */
  uploadedBy: string | null;
  signatureRequired: boolean;
  signatureStatus: 'pending' | 'signed' | 'rejected' | null;
  signedAt: string | null;
  signedBy: string | null;
  entityId: string | null;
  entityType: DocumentEntityType | null;
}

/** A document with the names of who uploaded and who signed it. */
type DocumentRow = RowOf<typeof Document> & { uploader_name: string | null; signer_name: string | null };

const SELECT_DOCUMENT = `
  SELECT d.*, ${sqlUserName('u')} AS uploader_name,
         ${sqlUserName('s')} AS signer_name
    FROM documents d
    LEFT JOIN users u ON u.id = d.uploaded_by
    LEFT JOIN users s ON s.id = d.signed_by`;

function toDto(row: DocumentRow): DocumentDto {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    kycType: row.kyc_type,
    mimeType: row.mime_type,
    size: Number(row.size),
    checksum: row.checksum.trim(),
    createdAt: iso(row.created_at),
    uploadedBy: row.uploader_name,
    signatureRequired: row.signature_required,
    signatureStatus: row.signature_status,
    signedAt: iso(row.signed_at),
    signedBy: row.signer_name,
    entityId: row.entity_id,
    entityType: row.entity_type,
  };
}

const ENTITY_TABLES: Record<DocumentEntityType, string> = { client: 'clients', customer: 'customers', invoice: 'invoices' };

interface Meta {
  name: string;
  type: DocumentType;
  kycType?: KycType | null;
  entityType?: DocumentEntityType | null;
  entityId?: string | null;
}

/** What a new documents row is told besides its bytes: its fields, who adds it (null: the registration wizard) and from where. */
type NewDocument = Meta & { actor: Actor | null; signatureRequired?: boolean; fileName?: string | null; ip?: string | null };

/** The fields every write checks again, whoever called (a caller that skipped the schema cannot write bad data). */
function validateMeta(meta: Meta): Required<Meta> {
  const errors: Record<string, string[]> = {};
  const name = typeof meta.name === 'string' ? meta.name.trim() : '';
  if (!name) errors.name = [MESSAGES.required];
  else if (name.length > 255) errors.name = [MESSAGES.tooLong];
  else if (!isSingleLineText(name)) errors.name = [INPUT_ERRORS.invalidCharacters];
  if (!DOCUMENT_TYPES.includes(meta.type)) errors.type = [MESSAGES.required];
  if (meta.kycType && !KYC_DOCUMENT_TYPES.includes(meta.kycType)) errors.kycType = [MESSAGES.kycTypeInvalid];
  const entityType = meta.entityType || null;
  const entityId = meta.entityId || null;
  if (entityType && !DOCUMENT_ENTITY_TYPES.includes(entityType)) errors.entityType = [MESSAGES.entityTypeInvalid];
  if (Boolean(entityType) !== Boolean(entityId)) errors[entityType ? 'entityId' : 'entityType'] = [MESSAGES.required];
  if (entityId && !isUuid(entityId)) errors.entityId = [MESSAGES.entityNotFound];
  const [first] = Object.values(errors);
  if (first) throw apiError(400, first[0], { errors: errors });
  return { name, type: meta.type, kycType: meta.kycType ?? null, entityType, entityId: entityId?.toLowerCase() ?? null };
}

async function assertEntityExists(meta: Required<Meta>, transaction: Transaction): Promise<void> {
  if (!meta.entityType || !meta.entityId) return;
  const row = await selectOne(`SELECT 1 AS found FROM ${ENTITY_TABLES[meta.entityType]} WHERE id = :id`, { id: meta.entityId }, { transaction });
  if (!row) throw apiError(400, MESSAGES.entityNotFound, { errors: { entityId: [MESSAGES.entityNotFound] } });
}

async function insertDocument(
  meta: Required<Meta>,
  file: { storageKey: string; checksum: string; size: number; mimeType: string },
  extra: { actor: Actor | null; signatureRequired: boolean; ip?: string | null; source: string; fileName?: string | null },
  transaction: Transaction,
): Promise<DocumentDto> {
  const { rows } = await execute<RowOf<typeof Document, 'id'>>(
    `INSERT INTO documents (name, type, kyc_type, mime_type, size, storage_key, checksum, entity_type, entity_id,
                            uploaded_by, signature_required, signature_status)
     VALUES (:name, :type, :kycType, :mimeType, :size, :storageKey, :checksum, :entityType, :entityId,
             :uploadedBy, :signatureRequired, CASE WHEN :signatureRequired THEN 'pending' END)
     RETURNING id`,
    { ...meta, ...file, uploadedBy: extra.actor?.id ?? null, signatureRequired: extra.signatureRequired },
    { transaction },
  );
  const id = rows[0].id;
  await logActivity(
    {
      action: 'document_uploaded',
      userId: extra.actor?.id ?? null,
      entityType: 'document',
      entityId: id,
      ipAddress: extra.ip,
      details: {
        name: meta.name,
        type: meta.type,
        kycType: meta.kycType,
        fileName: extra.fileName ?? null,
        mimeType: file.mimeType,
        size: file.size,
        checksum: file.checksum,
        linkedTo: meta.entityType ? { entityType: meta.entityType, entityId: meta.entityId } : null,
        signatureRequired: extra.signatureRequired,
        source: extra.source,
      },
    },
    transaction,
  );
  return toDto((await selectOne<DocumentRow>(`${SELECT_DOCUMENT} WHERE d.id = :id`, { id }, { transaction }))!);
}

/**
 * Checks the file (413 over 10 MB, 415 wrong type or content), stores its
 * bytes and inserts the row and its activity in the given (or an own)
 * transaction. `actor` null is the applicant's registration wizard (public);
 * staff need 'create:document'. Nothing is stored when a check refuses.
 */
export async function storeDocument(
  args: NewDocument & {
    bytes: Buffer;
    /** The original file name; its extension must match the content. Null: the bytes alone decide. */
    fileName: string | null;
    declaredMime?: string | null;
    /** Narrower than pdf/jpg/jpeg/png, e.g. PDF only for a KYC type. */
    allowed?: readonly AllowedExtension[];
  },
  options: { transaction?: Transaction } = {},
): Promise<DocumentDto> {
  if (args.actor) assertCan(args.actor, 'create:document');
  const meta = validateMeta(args);
  if (args.fileName && !isSingleLineText(args.fileName)) {
    throw apiError(400, INPUT_ERRORS.invalidCharacters, { errors: { fileName: [INPUT_ERRORS.invalidCharacters] } });
  }
  const { mimeType } = checkUpload({ bytes: args.bytes, fileName: args.fileName, declaredMime: args.declaredMime, allowed: args.allowed });
  if (options.transaction) await assertEntityExists(meta, options.transaction);
  else await inTransaction((transaction) => assertEntityExists(meta, transaction));

  // Outside the transaction: content-addressed puts are idempotent.
  const stored = await getObjectStore().put(args.bytes, { contentType: mimeType });
  try {
    return await inTransaction(async (transaction) => {
      await ensureObjectPresent(stored, args.bytes, transaction);
      return insertDocument(
        meta,
        { storageKey: stored.key, checksum: stored.checksum, size: stored.size, mimeType },
        { actor: args.actor, signatureRequired: Boolean(args.signatureRequired), ip: args.ip, source: 'upload', fileName: args.fileName },
        transaction,
      );
    }, options.transaction);
  } catch (error) {
    // Our own transaction rolled back: the file must not outlive it. (A caller's
    // transaction may still roll back later; the caller uses deleteObjectIfUnreferenced.)
    if (!options.transaction) await deleteObjectIfUnreferenced(stored.key).catch(() => {});
    throw error;
  }
}

/** A documents row for bytes already in the store (a claimed upload). 400 when the object is gone. */
export async function recordStoredDocument(
  args: NewDocument & { storageKey: string; checksum: string; size: number; mimeType: string },
  options: { transaction?: Transaction } = {},
): Promise<DocumentDto> {
  if (args.actor) assertCan(args.actor, 'create:document');
  const meta = validateMeta(args);
  return inTransaction(async (transaction) => {
    await assertEntityExists(meta, transaction);
    if (!(await lockExistingObject(args.storageKey, transaction))) throw apiError(400, MESSAGES.invalidUpload);
    return insertDocument(
      meta,
      { storageKey: args.storageKey, checksum: args.checksum, size: args.size, mimeType: args.mimeType },
      { actor: args.actor, signatureRequired: Boolean(args.signatureRequired), ip: args.ip, source: 'quarantine', fileName: args.fileName },
      transaction,
    );
  }, options.transaction);
}

/**
 * POST /api/documents, the registration document record (staff): claims the
 * upload named by fileUrl and records it, in one transaction.
 */
export async function createRegistrationDocument({ actor, input, ip }: { actor: Actor; input: unknown; ip?: string | null }): Promise<DocumentDto> {
  assertCan(actor, 'create:document');
  const parsed = registrationRecordSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error as z.ZodError);
  const data = parsed.data;
  return inTransaction(async (transaction) => {
    const objectId = await resolveUploadReference(data.fileUrl, { transaction, field: 'fileUrl' });
    const [upload] = await claimUploads([objectId], { transaction, field: 'fileUrl' });
    return recordStoredDocument(
      {
        actor,
        ...upload,
        storageKey: upload.storageKey,
        name: data.name,
        type: data.type,
        kycType: data.kycType ?? null,
        entityType: data.entityType,
        entityId: data.entityId,
        ip,
      },
      { transaction },
    );
  });
}

export interface DocumentCounts {
  all: number;
  signatures: number;
  recent: number;
  invoice: number;
  contract: number;
}

const TAB_FILTER: Record<DocumentTab, string> = {
  all: 'TRUE',
  signatures: 'd.signature_required',
  recent: 'd.created_at >= now() - make_interval(days => :recentDays)',
  invoice: `d.type = 'invoice'`,
  contract: `d.type = 'contract'`,
};

/**
 * Newest first; `q` searches names; the tab filters the page, and each tab's
 * count (over the same search) comes from one SQL query with FILTER.
 */
export async function listDocuments(options: {
  q?: string | null;
  tab?: DocumentTab;
  type?: DocumentType | null;
  limit?: number;
  offset?: number;
}): Promise<{ items: DocumentDto[]; total: number; counts: DocumentCounts }> {
  const tab = options.tab && options.tab in TAB_FILTER ? options.tab : 'all';
  const { limit, offset } = pageBounds(options);
  const q = options.q?.trim() ? `%${options.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const conditions = [q ? 'd.name ILIKE :q' : 'TRUE', options.type ? 'd.type = :type' : 'TRUE'];
  const base = conditions.join(' AND ');
  const replacements = { q, type: options.type ?? null, recentDays: RECENT_DAYS, limit, offset };
  const [counts, rows] = await Promise.all([
    selectOne<DocumentCounts>(
      `SELECT count(*)::int AS "all",
              count(*) FILTER (WHERE ${TAB_FILTER.signatures})::int AS signatures,
              count(*) FILTER (WHERE ${TAB_FILTER.recent})::int AS recent,
              count(*) FILTER (WHERE ${TAB_FILTER.invoice})::int AS invoice,
              count(*) FILTER (WHERE ${TAB_FILTER.contract})::int AS contract
         FROM documents d WHERE ${base}`,
      replacements,
    ),
    selectRows<DocumentRow>(`${SELECT_DOCUMENT} WHERE ${base} AND ${TAB_FILTER[tab]} ORDER BY d.created_at DESC, d.id DESC LIMIT :limit OFFSET :offset`, replacements),
  ]);
  const allCounts = counts ?? { all: 0, signatures: 0, recent: 0, invoice: 0, contract: 0 };
  return { items: rows.map(toDto), total: allCounts[tab], counts: allCounts };
}

export async function getDocument(id: string): Promise<DocumentDto> {
  const row = isUuid(id) ? await selectOne<DocumentRow>(`${SELECT_DOCUMENT} WHERE d.id = :id`, { id }) : null;
  if (!row) throw apiError(404, MESSAGES.notFound);
  return toDto(row);
}

/**
 * The stored bytes for GET …/download and …/view, checked against the
 * recorded checksum; both are logged as 'document_downloaded' (with the
 * disposition), since a view hands out the file just the same.
 */
export async function readDocumentFile(
  id: string,
  actor: Actor,
  ip?: string | null,
  disposition: 'attachment' | 'inline' = 'attachment',
): Promise<{ bytes: Buffer; mimeType: string; fileName: string; document: DocumentDto }> {
  assertCan(actor, 'read:all');
  const row = isUuid(id) ? await selectOne<DocumentRow>(`${SELECT_DOCUMENT} WHERE d.id = :id`, { id }) : null;
  if (!row) throw apiError(404, MESSAGES.notFound);
  let bytes: Buffer;
  try {
    bytes = await getObjectStore().get(row.storage_key);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EINVAL') {
      throw apiError(404, MESSAGES.fileMissing);
    }
    throw error;
  }
  // Never hand out bytes other than the ones recorded.
  if (sha256Hex(bytes) !== row.checksum.trim()) throw apiError(500, MESSAGES.checksumMismatch);
  await inTransaction((transaction) =>
    logActivity(
      { action: 'document_downloaded', userId: actor.id, entityType: 'document', entityId: row.id, ipAddress: ip, details: { name: row.name, disposition } },
      transaction,
    ),
  );
  return { bytes, mimeType: row.mime_type, fileName: safeFileName(row.name, row.mime_type), document: toDto(row) };
}

/**
 * PUT /api/documents/{id}/sign (manager and above): through the e-signature
 * adapter, pending → signed with who and when. 404 unknown, 409 when no
 * signature is required or the status is not pending. `adapter` is for tests.
 */
export async function signDocument({ actor, id, ip, adapter }: { actor: Actor; id: string; ip?: string | null; adapter?: ESignatureAdapter }): Promise<DocumentDto> {
  assertCan(actor, 'sign:document');
  if (!isUuid(id)) throw apiError(404, MESSAGES.notFound);
  return inTransaction(async (transaction) => {
    // The row lock makes a double click sign once: the second waits, then sees 'signed'.
    const row = await selectOne<RowOf<typeof Document>>(`SELECT * FROM documents WHERE id = :id FOR UPDATE`, { id }, { transaction });
    if (!row) throw apiError(404, MESSAGES.notFound);
    if (!row.signature_required) throw apiError(409, MESSAGES.signatureNotRequired);
    if (row.signature_status !== 'pending') throw apiError(409, MESSAGES.notPending);
    const signer = await selectOne<{ id: string; name: string; email: string }>(
      `SELECT id, btrim(concat_ws(' ', first_name, last_name)) AS name, email FROM users WHERE id = :id`,
      { id: actor.id },
      { transaction },
    );
    if (!signer) throw apiError(401, 'errors.auth.unauthorized');
    const { signatureId, signedAt } = await getESignature(adapter).sign({ id: row.id, checksum: row.checksum.trim(), name: row.name }, signer);
    await execute(
      `UPDATE documents SET signature_status = 'signed', signed_at = :signedAt, signed_by = :signedBy WHERE id = :id`,
      { id: row.id, signedAt, signedBy: actor.id },
      { transaction },
    );
    await logActivity(
      {
        action: 'document_signed',
        userId: actor.id,
        entityType: 'document',
        entityId: row.id,
        ipAddress: ip,
        details: { name: row.name, signatureId, checksum: row.checksum.trim() },
      },
      transaction,
    );
    return toDto((await selectOne<DocumentRow>(`${SELECT_DOCUMENT} WHERE d.id = :id`, { id: row.id }, { transaction }))!);
  });
}
