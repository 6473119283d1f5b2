import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { TOO_MANY_ATTEMPTS } from '../auth/throttle.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { getObjectStore } from '../storage/object-store.server.ts';
import { apiError } from '../utils/api.server.ts';
import { checkUpload, fileTooLarge } from './file-types.server.ts';
import { deleteObjectIfUnreferenced, ensureObjectPresent } from './object-refs.server.ts';
import { MAX_UPLOAD_BYTES, MESSAGES } from './schemas.ts';
import { INPUT_ERRORS, isSingleLineText, isUuid, UUID_PATTERN } from '../utils/validation.ts';

/**
 * The quarantine behind POST /api/objects/upload (docs/api.md), the one public
 * API write: a visitor gets a short-lived upload address, PUTs one file there,
 * and only a wizard submit (claimUploads) turns it into a document. Slots
 * nobody claims are purged with their files.
 */
export const UPLOAD_URL_MINUTES = 15;
/** Once uploaded, a file waits this long for the wizard's submit. */
export const UPLOAD_HOLD_HOURS = 24;
export const SLOTS_PER_WINDOW = 30;
export const SLOT_WINDOW_MINUTES = 10;
/** Claimed slots are kept a while for the audit trail; their documents row holds the file. */
const CLAIMED_RETENTION_DAYS = 30;
export const UPLOAD_PATH = '/api/objects/upload/';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** 400 on the field that named the upload (fileUrl on POST /api/documents, objectId in the wizard). */
const invalidUpload = (field: string) => apiError(400, MESSAGES.invalidUpload, { errors: { [field]: [MESSAGES.invalidUpload] } });

interface SlotRow {
  id: string;
  status: 'pending' | 'uploaded' | 'claimed';
  storage_key: string | null;
  checksum: string | null;
  size: string | number | null;
  mime_type: string | null;
  file_name: string | null;
  expired: boolean;
}

/** `{ uploadURL, objectId, expiresAt }`; 429 past 30 slots per address in 10 minutes. */
export async function createUploadSlot({ ip }: { ip: string | null }): Promise<{ uploadURL: string; objectId: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const address = ip ? ip.slice(0, 64) : null;
  const row = await inTransaction(async (transaction) => {
    // Serialises one address's requests, so parallel calls cannot overshoot the limit.
    await execute(`SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))`, { key: `upload-slot:${address ?? ''}` }, { transaction });
    const recent = await selectOne<{ count: number }>(
      `SELECT count(*)::int AS count FROM upload_objects
        WHERE ip IS NOT DISTINCT FROM :ip AND created_at > now() - make_interval(mins => :window)`,
      { ip: address, window: SLOT_WINDOW_MINUTES },
      { transaction },
    );
    if ((recent?.count ?? 0) >= SLOTS_PER_WINDOW) {
      throw apiError(429, TOO_MANY_ATTEMPTS, { headers: { 'Retry-After': String(SLOT_WINDOW_MINUTES * 60) } });
    }
    const { rows } = await execute<{ id: string; expires_at: Date }>(
      `INSERT INTO upload_objects (token_hash, ip, expires_at)
       VALUES (:hash, :ip, now() + make_interval(mins => :minutes)) RETURNING id, expires_at`,
      { hash: hashToken(token), ip: address, minutes: UPLOAD_URL_MINUTES },
      { transaction },
    );
    return rows[0];
  });
  return { uploadURL: `${UPLOAD_PATH}${token}`, objectId: row.id, expiresAt: new Date(row.expires_at).toISOString() };
}

/**
 * Reads and drops the rest of a refused body (up to `limit`), so the client
 * that is still sending gets to read our 413 instead of a reset connection.
 */
export async function discardBody(request: Request, reader?: ReadableStreamDefaultReader<Uint8Array>, limit = 64 * 1024 * 1024): Promise<void> {
  let seen = 0;
  try {
    // A body another reader has locked (the multipart parser) throws here: then there is nothing to do.
    const source = reader ?? request.body?.getReader();
    if (!source) return;
    while (seen <= limit) {
      const { done, value } = await source.read();
      if (done) return;
      seen += value.byteLength;
    }
    await source.cancel();
  } catch {
    // The client went away; nothing to answer.
  }
}

/** Reads at most MAX_UPLOAD_BYTES of the body; 413 as soon as it is longer. */
async function readCapped(request: Request): Promise<Buffer> {
  if (Number(request.headers.get('Content-Length') ?? '0') > MAX_UPLOAD_BYTES) {
    await discardBody(request);
    throw fileTooLarge();
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_UPLOAD_BYTES) {
      await discardBody(request, reader);
      throw fileTooLarge();
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks, total);
}

/**
 * An optional original name in X-File-Name (percent-encoded, as browsers
 * cannot send raw UTF-8 headers). A name that does not decode, or decodes to
 * control characters or broken Unicode, is refused (400 on fileName), never
 * stored.
 */
function fileNameHeader(request: Request): string | null {
  const raw = request.headers.get('X-File-Name');
  if (!raw) return null;
  let name: string | null = null;
  try {
    name = decodeURIComponent(raw).slice(0, 255);
  } catch {
    // Not percent-encoded UTF-8 (a lone surrogate, a cut sequence): a name that is there but unreadable is refused below, not dropped.
  }
  if (name === null || !isSingleLineText(name)) throw apiError(400, INPUT_ERRORS.invalidCharacters, { errors: { fileName: [INPUT_ERRORS.invalidCharacters] } });
  return name || null;
}

/**
 * PUT /api/objects/upload/{token}: the file body. 404 unknown or expired
 * address, 409 already uploaded, 413 over 10 MB, 415 not a PDF/PNG/JPEG (or
 * not matching the X-File-Name extension). Stores the bytes and starts the hold.
 */
export async function receiveUpload(token: string, request: Request): Promise<{ objectId: string; size: number; mimeType: string; fileName: string | null }> {
  const hash = /^[A-Za-z0-9_-]{43}$/.test(token) ? hashToken(token) : null;
  const slot = hash ? await selectOne<SlotRow>(`SELECT id, status, expires_at <= now() AS expired FROM upload_objects WHERE token_hash = :hash`, { hash }) : null;
  if (!slot || (slot.status === 'pending' && slot.expired)) throw apiError(404, MESSAGES.uploadAddressInvalid);
  if (slot.status !== 'pending') throw apiError(409, MESSAGES.alreadyUploaded);

  let fileName: string | null;
  try {
    fileName = fileNameHeader(request);
  } catch (error) {
    await discardBody(request);
    throw error;
  }
  const bytes = await readCapped(request);
  const { mimeType } = checkUpload({ bytes, fileName, declaredMime: request.headers.get('Content-Type') });
  const stored = await getObjectStore().put(bytes, { contentType: mimeType });
  try {
    await inTransaction(async (transaction) => {
      await ensureObjectPresent(stored, bytes, transaction);
      const { count } = await execute(
        `UPDATE upload_objects
            SET status = 'uploaded', storage_key = :key, checksum = :checksum, size = :size, mime_type = :mimeType,
                file_name = :fileName, uploaded_at = now(), expires_at = now() + make_interval(hours => :hold)
          WHERE id = :id AND status = 'pending' AND expires_at > now()`,
        { id: slot.id, key: stored.key, checksum: stored.checksum, size: stored.size, mimeType, fileName, hold: UPLOAD_HOLD_HOURS },
        { transaction },
      );
      // A parallel PUT to the same address won.
      if (count !== 1) throw apiError(409, MESSAGES.alreadyUploaded);
    });
  } catch (error) {
    await deleteObjectIfUnreferenced(stored.key);
    throw error;
  }
  return { objectId: slot.id, size: stored.size, mimeType, fileName };
}

/** An upload reference from a client: the object id, or the uploadURL (absolute or not) with its token. */
export async function resolveUploadReference(reference: string, options: { transaction?: Transaction; field?: string } = {}): Promise<string> {
  const field = options.field ?? 'fileUrl';
  const value = reference.trim();
  if (UUID_PATTERN.test(value)) return value.toLowerCase();
  let pathname = value;
  try {
    pathname = new URL(value, 'http://localhost').pathname;
  } catch {
    throw invalidUpload(field);
  }
  const token = pathname.startsWith(UPLOAD_PATH) ? pathname.slice(UPLOAD_PATH.length) : '';
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw invalidUpload(field);
  const row = await selectOne<{ id: string }>(`SELECT id FROM upload_objects WHERE token_hash = :hash`, { hash: hashToken(token) }, { transaction: options.transaction });
  if (!row) throw invalidUpload(field);
  return row.id;
}

export interface ClaimedUpload {
  id: string;
  storageKey: string;
  checksum: string;
  size: number;
  mimeType: string;
  fileName: string | null;
}

/**
 * Marks uploaded, unexpired slots claimed (in the caller's transaction, with
 * the documents that reference them) and returns their objects. 400 when any
 * id is unknown, still empty, expired or already claimed: nothing is claimed then.
 */
export async function claimUploads(objectIds: string[], options: { transaction?: Transaction; field?: string } = {}): Promise<ClaimedUpload[]> {
  const field = options.field ?? 'objectId';
  const ids = [...new Set(objectIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  if (!ids.every((id) => isUuid(id) && id === id.toLowerCase())) throw invalidUpload(field);
  return inTransaction(async (transaction) => {
    const { rows } = await execute<SlotRow>(
      `UPDATE upload_objects SET status = 'claimed', claimed_at = now()
        WHERE id IN (:ids) AND status = 'uploaded' AND expires_at > now()
        RETURNING id, status, storage_key, checksum, size, mime_type, file_name`,
      { ids },
      { transaction },
    );
    // Throwing rolls the caller's transaction back, and with it any partial claim.
    if (rows.length !== ids.length) throw invalidUpload(field);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return objectIds.map((raw) => {
      const row = byId.get(raw.toLowerCase())!;
      return {
        id: row.id,
        storageKey: row.storage_key!,
        checksum: row.checksum!,
        size: Number(row.size),
        mimeType: row.mime_type!,
        fileName: row.file_name,
      };
    });
  }, options.transaction);
}

/**
 * The purge job: deletes expired slots nobody claimed (and claimed ones past
 * their retention), then each of their files that nothing references any more.
 */
export async function purgeUnclaimedUploads(): Promise<{ slots: number; files: number }> {
  const { rows } = await execute<{ storage_key: string | null }>(
    `DELETE FROM upload_objects
      WHERE (status <> 'claimed' AND expires_at <= now())
         OR (status = 'claimed' AND claimed_at <= now() - make_interval(days => :days))
      RETURNING storage_key`,
    { days: CLAIMED_RETENTION_DAYS },
  );
  let files = 0;
  for (const key of new Set(rows.map((row) => row.storage_key).filter((key): key is string => key !== null))) {
    if (await deleteObjectIfUnreferenced(key)) files += 1;
  }
  return { slots: rows.length, files };
}
