import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { objectKeyFor, sha256Hex } from '../storage/object-store.server.ts';
import { claimUploads, createUploadSlot, purgeUnclaimedUploads, receiveUpload, recordStoredDocument, storeDocument } from './documents.server.ts';
import { resolveUploadReference, SLOTS_PER_WINDOW } from './uploads.server.ts';
import { createTestUser } from '../../tests/factories.ts';

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n${text}\n%%EOF\n`, 'latin1');
const objectPath = (key: string) => path.join(process.env.DATA_DIR!, 'objects', key);

function put(uploadURL: string, body: Buffer, headers: Record<string, string> = {}) {
  return new Request(`http://localhost${uploadURL}`, { method: 'PUT', body: new Uint8Array(body), headers: { 'Content-Type': 'application/pdf', ...headers } });
}

async function uploaded(text: string, ip = '192.0.2.1') {
  const slot = await createUploadSlot({ ip });
  const bytes = pdf(text);
  await receiveUpload(slot.uploadURL.split('/').at(-1)!, put(slot.uploadURL, bytes, { 'X-File-Name': encodeURIComponent('izvadak sudskog registra.pdf') }));
  return { ...slot, bytes, token: slot.uploadURL.split('/').at(-1)! };
}

describe('upload quarantine', () => {
  it('hands out a short-lived address and keeps only the hash of its token', async () => {
    const slot = await createUploadSlot({ ip: '192.0.2.10' });
    expect(slot.uploadURL).toMatch(/^\/api\/objects\/upload\/[A-Za-z0-9_-]{43}$/);
    const minutes = (new Date(slot.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    const row = await selectOne<{ token_hash: string; status: string }>(`SELECT token_hash, status FROM upload_objects WHERE id = :id`, { id: slot.objectId });
    expect(row).toEqual({ token_hash: sha256Hex(Buffer.from(slot.uploadURL.split('/').at(-1)!)), status: 'pending' });
  });

  it('limits slots per address (429)', async () => {
    for (let i = 0; i < SLOTS_PER_WINDOW; i += 1) await createUploadSlot({ ip: '192.0.2.99' });
    const refused = await apiFailure(createUploadSlot({ ip: '192.0.2.99' }));
    expect(refused).toMatchObject({ status: 429, body: { message: 'Too many attempts. Try again later.' } });
    await createUploadSlot({ ip: '192.0.2.98' });
  });

  it('stores a PUT file, refuses a second PUT (409), an executable (415), too large (413) and unknown addresses (404)', async () => {
    const { token, uploadURL, objectId, bytes } = await uploaded('first');
    const row = await selectOne<Record<string, unknown>>(`SELECT status, storage_key, size::int AS size, mime_type, file_name FROM upload_objects WHERE id = :id`, {
      id: objectId,
    });
    expect(row).toEqual({
      status: 'uploaded',
      storage_key: objectKeyFor(sha256Hex(bytes)),
      size: bytes.length,
      mime_type: 'application/pdf',
      file_name: 'izvadak sudskog registra.pdf',
    });
    expect(fs.existsSync(objectPath(objectKeyFor(sha256Hex(bytes))))).toBe(true);
    expect((await apiFailure(receiveUpload(token, put(uploadURL, pdf('second'))))).status).toBe(409);

    const exeSlot = await createUploadSlot({ ip: '192.0.2.2' });
    const exe = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(64)]);
    expect((await apiFailure(receiveUpload(exeSlot.uploadURL.split('/').at(-1)!, put(exeSlot.uploadURL, exe, { 'X-File-Name': 'a.pdf' })))).status).toBe(415);
    const bigSlot = await createUploadSlot({ ip: '192.0.2.2' });
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    pdf('big').copy(big);
    expect((await apiFailure(receiveUpload(bigSlot.uploadURL.split('/').at(-1)!, put(bigSlot.uploadURL, big)))).status).toBe(413);
    for (const refused of [exe, big]) expect(fs.existsSync(objectPath(objectKeyFor(sha256Hex(refused))))).toBe(false);
    expect((await apiFailure(receiveUpload('x'.repeat(43), put('/x', pdf('x'))))).status).toBe(404);
  });

  it('claims uploads inside the caller transaction, and refuses expired, empty, unknown or claimed ones (400)', async () => {
    const a = await uploaded('claim a');
    const b = await uploaded('claim b');
    expect(await resolveUploadReference(`http://localhost:3000${a.uploadURL}`)).toBe(a.objectId);
    const documents = await inTransaction(async (transaction) => {
      const claimed = await claimUploads([a.objectId, b.objectId], { transaction });
      expect(claimed.map((item) => item.id)).toEqual([a.objectId, b.objectId]);
      return Promise.all(
        claimed.map((item, index) => recordStoredDocument({ actor: null, ...item, name: `KYC ${index}`, type: 'kyc_document', kycType: 'tax_certificate' }, { transaction })),
      );
    });
    expect(documents[0]).toMatchObject({ checksum: sha256Hex(a.bytes), size: a.bytes.length, uploadedBy: null, kycType: 'tax_certificate' });
    expect(await apiFailure(claimUploads([a.objectId]))).toMatchObject({ status: 400 });

    const empty = await createUploadSlot({ ip: '192.0.2.3' });
    expect((await apiFailure(claimUploads([empty.objectId]))).status).toBe(400);
    const expired = await uploaded('expired');
    await execute(`UPDATE upload_objects SET created_at = now() - interval '1 day', expires_at = now() - interval '1 minute' WHERE id = :id`, { id: expired.objectId });
    expect((await apiFailure(claimUploads([expired.objectId]))).status).toBe(400);
    expect((await apiFailure(claimUploads(['00000000-0000-4000-8000-000000000009']))).status).toBe(400);

    // One bad id and nothing is claimed.
    const c = await uploaded('claim c');
    expect((await apiFailure(claimUploads([c.objectId, expired.objectId]))).status).toBe(400);
    expect((await selectOne<{ status: string }>(`SELECT status FROM upload_objects WHERE id = :id`, { id: c.objectId }))!.status).toBe('uploaded');
  });

  it('purges expired unclaimed slots and their files, but keeps files that a document or another slot shares', async () => {
    const lonely = await uploaded('lonely file');
    const shared = await uploaded('shared with a document');
    const staff = await createTestUser({ role: 'user' });
    await storeDocument({ actor: { id: staff.id, role: staff.role }, bytes: shared.bytes, fileName: 'shared.pdf', name: 'Dijeljeni', type: 'contract' });
    const twinA = await uploaded('twin');
    const twinB = await uploaded('twin');
    const pending = await createUploadSlot({ ip: '192.0.2.4' });
    const fresh = await uploaded('still held');
    await execute(`UPDATE upload_objects SET created_at = now() - interval '1 day', expires_at = now() - interval '1 minute' WHERE id IN (:ids)`, {
      ids: [lonely.objectId, shared.objectId, twinA.objectId, pending.objectId],
    });

    const result = await purgeUnclaimedUploads();
    expect(result.slots).toBeGreaterThanOrEqual(4);
    const left = await selectOne<{ ids: string[] }>(`SELECT array_agg(id::text) AS ids FROM upload_objects WHERE id IN (:ids)`, {
      ids: [lonely.objectId, shared.objectId, twinA.objectId, twinB.objectId, pending.objectId, fresh.objectId],
    });
    expect(left!.ids.sort()).toEqual([twinB.objectId, fresh.objectId].sort());
    const exists = (bytes: Buffer) => fs.existsSync(objectPath(objectKeyFor(sha256Hex(bytes))));
    expect(exists(lonely.bytes)).toBe(false);
    expect(exists(shared.bytes)).toBe(true);
    expect(exists(twinB.bytes)).toBe(true);
    expect(exists(fresh.bytes)).toBe(true);
    expect(await purgeUnclaimedUploads()).toEqual({ slots: 0, files: 0 });
  });
});
