import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import type { UserRow } from '../auth/user-record.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { getObjectStore, objectKeyFor, sha256Hex } from '../storage/object-store.server.ts';
import { getDocument, listDocuments, readDocumentFile, signDocument, storeDocument } from './documents.server.ts';
import { MAX_UPLOAD_BYTES } from './schemas.ts';
import { createTestUser } from '../../tests/factories.ts';

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n${text}\n%%EOF\n`, 'latin1');
const actorOf = (user: UserRow) => ({ id: user.id, role: user.role });
const objectPath = (key: string) => path.join(process.env.DATA_DIR!, 'objects', key);

let staff: UserRow;
let manager: UserRow;

beforeAll(async () => {
  staff = await createTestUser({ role: 'user' });
  manager = await createTestUser({ role: 'manager' });
});

describe('storeDocument', () => {
  it('stores the bytes by content, writes the row and its activity, and returns the document', async () => {
    const bytes = pdf('ugovor o faktoringu');
    const document = await storeDocument({ actor: actorOf(staff), bytes, fileName: 'ugovor.pdf', name: 'Ugovor o faktoringu', type: 'contract', ip: '10.0.0.1' });
    expect(document).toMatchObject({
      name: 'Ugovor o faktoringu',
      type: 'contract',
      mimeType: 'application/pdf',
      size: bytes.length,
      checksum: sha256Hex(bytes),
      uploadedBy: 'Test User',
      signatureRequired: false,
      signatureStatus: null,
      entityId: null,
      entityType: null,
    });
    const row = await selectOne<{ storage_key: string; checksum: string }>(`SELECT storage_key, checksum FROM documents WHERE id = :id`, { id: document.id });
    expect(row!.storage_key).toBe(objectKeyFor(sha256Hex(bytes)));
    const stored = await getObjectStore().get(row!.storage_key);
    expect(sha256Hex(stored)).toBe(row!.checksum.trim());
    const [activity] = await activityRows('document_uploaded', document.id);
    expect(activity).toMatchObject({ user_id: staff.id, ip_address: '10.0.0.1' });
    expect(activity.details).toMatchObject({ name: 'Ugovor o faktoringu', checksum: sha256Hex(bytes), size: bytes.length });
  });

  it('marks a document that needs a signature as pending; the public wizard stores without an actor', async () => {
    const signed = await storeDocument({ actor: actorOf(staff), bytes: pdf('s'), fileName: 's.pdf', name: 'Za potpis', type: 'contract', signatureRequired: true });
    expect(signed.signatureStatus).toBe('pending');
    const client = await selectOne<{ id: string }>(`INSERT INTO clients (company_name, oib) VALUES ('Dokumenti d.o.o.', '12345678903') RETURNING id`);
    const kyc = await storeDocument({
      actor: null,
      bytes: pdf('kyc'),
      fileName: 'izvadak.pdf',
      name: 'Izvadak',
      type: 'kyc_document',
      kycType: 'company_registration',
      entityType: 'client',
      entityId: client!.id,
    });
    expect(kyc).toMatchObject({ uploadedBy: null, kycType: 'company_registration', entityType: 'client', entityId: client!.id });
  });

  it('stores nothing when the file is refused (415 executable, 413 too large) or the input is invalid', async () => {
    const before = await selectOne<{ count: number }>(`SELECT count(*)::int AS count FROM documents`);
    const exe = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(100, 1)]);
    expect((await apiFailure(storeDocument({ actor: actorOf(staff), bytes: exe, fileName: 'virus.pdf', name: 'Virus', type: 'contract' }))).status).toBe(415);
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    pdf('x').copy(big);
    expect((await apiFailure(storeDocument({ actor: actorOf(staff), bytes: big, fileName: 'big.pdf', name: 'Big', type: 'contract' }))).status).toBe(413);
    const missing = await apiFailure(storeDocument({ actor: actorOf(staff), bytes: pdf('m'), fileName: 'm.pdf', name: ' ', type: 'contract' }));
    expect(missing).toMatchObject({ status: 400, body: { message: 'Molimo unesite sve obavezne podatke.' } });
    const orphan = pdf('linked to nothing');
    const unknown = await apiFailure(
      storeDocument({
        actor: actorOf(staff),
        bytes: orphan,
        fileName: 'o.pdf',
        name: 'O',
        type: 'contract',
        entityType: 'client',
        entityId: '00000000-0000-4000-8000-000000000009',
      }),
    );
    expect(unknown.status).toBe(400);
    for (const bytes of [exe, big, orphan]) expect(fs.existsSync(objectPath(objectKeyFor(sha256Hex(bytes))))).toBe(false);
    expect(await selectOne<{ count: number }>(`SELECT count(*)::int AS count FROM documents`)).toEqual(before);
  });
});

describe('listDocuments', () => {
  it('returns tab counts equal to SQL counts, filtered by search, newest first', async () => {
    await storeDocument({ actor: actorOf(staff), bytes: pdf('inv'), fileName: 'r.pdf', name: 'Račun 2026-001', type: 'invoice' });
    const old = await storeDocument({ actor: actorOf(staff), bytes: pdf('old'), fileName: 'o.pdf', name: 'Stari ugovor', type: 'contract' });
    await execute(`UPDATE documents SET created_at = now() - interval '8 days' WHERE id = :id`, { id: old.id });

    const { items, total, counts } = await listDocuments({ tab: 'all', limit: 1000 });
    const sql = await selectOne<Record<string, number>>(`
      SELECT count(*)::int AS "all", (SELECT count(*)::int FROM documents WHERE signature_required) AS signatures,
             (SELECT count(*)::int FROM documents WHERE created_at >= now() - interval '7 days') AS recent,
             (SELECT count(*)::int FROM documents WHERE type = 'invoice') AS invoice,
             (SELECT count(*)::int FROM documents WHERE type = 'contract') AS contract
        FROM documents`);
    expect(counts).toEqual(sql);
    expect(total).toBe(sql!.all);
    expect(items.map((item) => item.createdAt)).toEqual([...items.map((item) => item.createdAt)].sort().reverse());

    const recent = await listDocuments({ tab: 'recent' });
    expect(recent.items.some((item) => item.id === old.id)).toBe(false);
    expect(recent.total).toBe(sql!.recent);
    const contracts = await listDocuments({ tab: 'contract', limit: 1 });
    expect(contracts.items).toHaveLength(1);
    expect(contracts.total).toBe(sql!.contract);

    const search = await listDocuments({ q: 'račun', tab: 'all' });
    expect(search.items.map((item) => item.name)).toEqual(['Račun 2026-001']);
    expect(search.counts).toEqual({ all: 1, signatures: 0, recent: 1, invoice: 1, contract: 0 });
  });
});

describe('reading and signing', () => {
  it('reads the stored bytes back and logs every download and view', async () => {
    const bytes = pdf('download me');
    const document = await storeDocument({ actor: actorOf(staff), bytes, fileName: 'd.pdf', name: 'Izvješće: Q1/2026', type: 'financial_statement' });
    const file = await readDocumentFile(document.id, actorOf(staff), '10.0.0.2');
    expect(file.bytes.equals(bytes)).toBe(true);
    expect(file).toMatchObject({ mimeType: 'application/pdf', fileName: 'Izvješće_ Q1_2026.pdf' });
    await readDocumentFile(document.id, actorOf(staff), null, 'inline');
    const logged = await activityRows('document_downloaded', document.id);
    expect(logged.map((row) => row.details.disposition)).toEqual(['attachment', 'inline']);
    expect((await apiFailure(readDocumentFile('00000000-0000-4000-8000-000000000009', actorOf(staff)))).status).toBe(404);
  });

  it('signs pending → signed with who and when, through the adapter; 409 when not pending or not required; 403 for role user', async () => {
    const document = await storeDocument({ actor: actorOf(staff), bytes: pdf('sign'), fileName: 'sign.pdf', name: 'Ugovor za potpis', type: 'contract', signatureRequired: true });
    expect((await apiFailure(signDocument({ actor: actorOf(staff), id: document.id }))).status).toBe(403);

    const signed = await signDocument({ actor: actorOf(manager), id: document.id, ip: '10.0.0.3' });
    expect(signed).toMatchObject({ signatureStatus: 'signed', signedBy: 'Test User' });
    expect(Date.now() - new Date(signed.signedAt!).getTime()).toBeLessThan(60_000);
    const row = await selectOne<{ signed_by: string }>(`SELECT signed_by FROM documents WHERE id = :id`, { id: document.id });
    expect(row!.signed_by).toBe(manager.id);
    const [activity] = await activityRows('document_signed', document.id);
    expect(activity).toMatchObject({ user_id: manager.id, ip_address: '10.0.0.3' });
    expect(String(activity.details.signatureId)).toMatch(/^sandbox-[0-9a-f]{32}$/);

    expect(await apiFailure(signDocument({ actor: actorOf(manager), id: document.id }))).toMatchObject({ status: 409 });
    const plain = await storeDocument({ actor: actorOf(staff), bytes: pdf('plain'), fileName: 'p.pdf', name: 'Bez potpisa', type: 'contract' });
    expect((await apiFailure(signDocument({ actor: actorOf(manager), id: plain.id }))).status).toBe(409);
    expect((await getDocument(plain.id)).signatureStatus).toBeNull();
    expect((await apiFailure(signDocument({ actor: actorOf(manager), id: '00000000-0000-4000-8000-000000000009' }))).status).toBe(404);
  });
});
