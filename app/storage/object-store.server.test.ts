import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskObjectStore, getObjectStore } from './object-store.server.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-objects-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('DiskObjectStore', () => {
  const store = new DiskObjectStore(root);

  it('stores bytes by their sha256 and reads them back', async () => {
    const bytes = Buffer.from('%PDF-1.4 hello');
    const checksum = createHash('sha256').update(bytes).digest('hex');
    const stored = await store.put(bytes, { contentType: 'application/pdf' });
    expect(stored).toEqual({
      key: `sha256/${checksum.slice(0, 2)}/${checksum.slice(2)}`,
      checksum,
      size: bytes.length,
    });
    expect(await store.exists(stored.key)).toBe(true);
    expect((await store.get(stored.key)).equals(bytes)).toBe(true);
    expect(fs.existsSync(path.join(root, stored.key))).toBe(true);
  });

  it('keeps one copy of identical bytes and leaves no temporary files', async () => {
    const bytes = Buffer.from('same bytes');
    const [a, b] = await Promise.all([store.put(bytes), store.put(bytes)]);
    expect(a).toEqual(b);
    const folder = path.dirname(path.join(root, a.key));
    expect(fs.readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('stores empty objects', async () => {
    const stored = await store.put(Buffer.alloc(0));
    expect(stored.size).toBe(0);
    expect((await store.get(stored.key)).length).toBe(0);
  });

  it('answers unknown keys as missing and refuses keys that are not content addresses', async () => {
    const unknown = `sha256/00/${'0'.repeat(62)}`;
    expect(await store.exists(unknown)).toBe(false);
    await expect(store.get(unknown)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.get('../../etc/passwd')).rejects.toThrow(/Invalid object key/);
    await expect(store.exists('sha256/ab/../../x')).rejects.toThrow(/Invalid object key/);
  });
});

describe('getObjectStore', () => {
  it('lives under DATA_DIR/objects', async () => {
    const previous = process.env.DATA_DIR;
    process.env.DATA_DIR = root;
    try {
      const store = getObjectStore();
      expect(store).toBeInstanceOf(DiskObjectStore);
      expect((store as DiskObjectStore).root).toBe(path.join(root, 'objects'));
      const stored = await store.put(Buffer.from('via env'));
      expect(fs.existsSync(path.join(root, 'objects', stored.key))).toBe(true);
    } finally {
      process.env.DATA_DIR = previous;
    }
  });
});
